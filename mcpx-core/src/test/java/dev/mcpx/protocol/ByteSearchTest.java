package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Eight bytes at a time finds what a byte at a time finds, wherever it is and whatever surrounds it. */
class ByteSearchTest {

    /** Bytes next to the edges each test looks for: below a space, a quote, a backslash, DEL, beyond ASCII. */
    private static final byte[] EDGES = {'\n', 0x00, 0x09, 0x0b, 0x1f, ' ', '!', '"', '#', '[', '\\', ']', 0x7f, (byte) 0x80,
        (byte) 0x8a, (byte) 0xa2, (byte) 0xdc, (byte) 0xff, 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'};

    @Property(tries = 5000)
    void findsTheFirstByteALoopFinds(@ForAll @Size(max = 80) byte[] noise, @ForAll @IntRange(max = 80) int from,
                                     @ForAll @IntRange(max = 80) int to) {
        byte[] bytes = new byte[noise.length];
        for (int i = 0; i < bytes.length; i++) {
            // mostly plain text, so that whole words of it are skipped before an edge
            bytes[i] = (noise[i] & 0x03) == 0 ? EDGES[(noise[i] & 0xFF) % EDGES.length] : (byte) ('a' + (noise[i] & 0x0F));
        }
        int start = Math.min(from, bytes.length);
        int end = Math.max(start, Math.min(to, bytes.length));
        assertThat(ByteSearch.indexOfLineFeed(bytes, start, end)).isEqualTo(lineFeedByLoop(bytes, start, end));
        assertThat(ByteSearch.endOfPlainJsonText(bytes, start, end)).isEqualTo(endOfPlainByLoop(bytes, start, end));
    }

    @Test
    void anEdgeAtEveryPlaceOfAWordIsFound() {
        for (byte edge : new byte[] {'\n', 0x1f, '"', '\\', (byte) 0x80}) {
            for (int at = 0; at < 24; at++) {
                byte[] bytes = "abcdefghijklmnopqrstuvwx".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                bytes[at] = edge;
                assertThat(ByteSearch.endOfPlainJsonText(bytes, 0, bytes.length)).isEqualTo(at);
                assertThat(ByteSearch.indexOfLineFeed(bytes, 0, bytes.length)).isEqualTo(edge == '\n' ? at : -1);
            }
        }
    }

    private static int lineFeedByLoop(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int endOfPlainByLoop(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] < ' ' || bytes[i] == '"' || bytes[i] == '\\') {
                return i;
            }
        }
        return to;
    }
}
