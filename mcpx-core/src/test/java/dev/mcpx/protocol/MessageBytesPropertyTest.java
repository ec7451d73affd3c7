package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class MessageBytesPropertyTest {

    /** Whatever length was declared, right or wrong or none, the bytes are what readNBytes gives. */
    @Property(tries = 3000)
    void readsWhatReadNBytesReads(@ForAll @Size(max = 5000) byte[] body, @ForAll @IntRange(max = 6000) int max,
                                  @ForAll @IntRange(min = -1, max = 6000) int declared,
                                  @ForAll @IntRange(min = 1, max = 700) int piece) throws IOException {
        byte[] expected = new ByteArrayInputStream(body).readNBytes(max);
        assertThat(MessageBytes.readAtMost(new Trickle(body, piece), max, declared)).isEqualTo(expected);
    }

    /** Bytes are blank exactly when their text is, whitespace of every kind and malformed UTF-8 included. */
    @Property(tries = 3000)
    void bytesAreBlankWhenTheirTextIs(@ForAll @Size(max = 12) byte[] raw,
                                      @ForAll @Chars({' ', '\t', '\n', '\r', '\u000b', '\f', '\u001c', '\u2003', '\u3000', 'a'})
                                      @StringLength(max = 12) String text) {
        assertThat(MessageBytes.isBlank(raw)).isEqualTo(new String(raw, StandardCharsets.UTF_8).isBlank());
        assertThat(MessageBytes.isBlank(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(text.isBlank());
    }

    @Test
    void theDeclaredLengthIsReadIntoABufferOfThatSize() throws IOException {
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".getBytes();
        byte[] read = MessageBytes.readAtMost(new ByteArrayInputStream(body), 16 * 1024 * 1024 + 1, body.length);
        assertThat(read).isEqualTo(body).hasSize(body.length);
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThatThrownBy(() -> MessageBytes.readAtMost(InputStream.nullInputStream(), -1, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Hands out at most {@code piece} bytes per read, as a socket does. */
    private static final class Trickle extends InputStream {
        private final byte[] body;
        private final int piece;
        private int at;

        Trickle(byte[] body, int piece) {
            this.body = body;
            this.piece = piece;
        }

        @Override
        public int read() {
            return at < body.length ? body[at++] & 0xff : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            if (at == body.length) {
                return -1;
            }
            int n = Math.min(Math.min(length, piece), body.length - at);
            System.arraycopy(body, at, into, offset, n);
            at += n;
            return n;
        }
    }
}
