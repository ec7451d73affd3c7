package dev.mcpx.front.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A host's lines come out whole and as sent, however the pipe splits or joins them. */
class HostLinesTest {

    @Test
    void linesSplitAndJoinedAnyWayComeOutAsSent() throws IOException {
        String emoji = "\uD83D\uDE00";
        byte[] sent = ("{\"text\":\"h\u00e9" + emoji + "\"}\r\n{\"n\":1}\n{\"n\":2}\n\nlast").getBytes(StandardCharsets.UTF_8);
        // cut inside the two-byte and the four-byte characters, and next to the LFs
        int[] cuts = {4, 12, 15, 17, 30, 34, 35, 36, sent.length};
        Chunks chunks = new Chunks();
        for (int i = 0, from = 0; i < cuts.length; from = cuts[i++]) {
            chunks.pieces.add(Arrays.copyOfRange(sent, from, cuts[i]));
        }
        List<String> lines = all(new HostLines(chunks, 100));
        assertThat(lines).containsExactly("{\"text\":\"h\u00e9" + emoji + "\"}", "{\"n\":1}", "{\"n\":2}", "", "last");
    }

    @Test
    void aLineOverTheLimitIsReportedAndTheNextComesWhole() throws IOException {
        String big = "x".repeat(70_000);
        assertThat(all(new HostLines(new Chunks("{\"a\":1}\n" + big + "\n{\"b\":2}\n" + big), 1000)))
                .containsExactly("{\"a\":1}", "TOO LONG", "{\"b\":2}", "TOO LONG");
        assertThat(all(new HostLines(new Chunks("1234567890\n12345678901\n"), 10))).containsExactly("1234567890", "TOO LONG");
    }

    @Test
    void aLongLineWithinTheLimitSpanningManyReadsComesOutWhole() throws IOException {
        String big = "y".repeat(200_000);
        String[] pieces = new String[]{big.substring(0, 70_000), big.substring(70_000) + "\n" + big.substring(0, 5), big.substring(5) + "\n"};
        assertThat(all(new HostLines(new Chunks(pieces), 300_000))).containsExactly(big, big);
    }

    @Test
    void aLineOfSeveralMegabytesIsNotHeldOnceTheNextIsRead() throws IOException {
        String big = "y".repeat(3_000_000);
        HostLines lines = new HostLines(new Chunks(big + "\n" + big + "!\nz\n" + "w".repeat(200_000) + "\nv\n"), 3_000_000);
        int small = lines.retainedBytes();
        assertThat(lines.next()).isInstanceOf(HostLines.Line.Text.class);
        assertThat(lines.next()).isInstanceOf(HostLines.Line.TooLong.class);
        assertThat(lines.retainedBytes()).isGreaterThan(3_000_000);
        assertThat(string(lines.next())).isEqualTo("z");
        assertThat(lines.retainedBytes()).isEqualTo(small);
        lines.next();
        assertThat(lines.next()).isInstanceOf(HostLines.Line.Text.class);
        assertThat(lines.retainedBytes()).as("a line under a MB keeps its array for the next").isGreaterThan(small);
    }

    @Test
    void blankMeansAsciiWhitespaceOnly() {
        assertThat(text(" \t\r").blank()).isTrue();
        assertThat(text("").blank()).isTrue();
        assertThat(text(" {} ").blank()).isFalse();
        assertThat(text("\u00a0").blank()).isFalse();
    }

    private static HostLines.Line.Text text(String value) {
        byte[] bytes = ("#" + value).getBytes(StandardCharsets.UTF_8);
        return new HostLines.Line.Text(bytes, 1, bytes.length - 1);
    }

    private static List<String> all(HostLines lines) throws IOException {
        List<String> out = new ArrayList<>();
        for (HostLines.Line line = lines.next(); line != null; line = lines.next()) {
            out.add(string(line));
        }
        return out;
    }

    private static String string(HostLines.Line line) {
        return switch (line) {
            case HostLines.Line.Text text -> new String(text.bytes(), text.offset(), text.length(), StandardCharsets.UTF_8);
            case HostLines.Line.TooLong tooLong -> "TOO LONG";
        };
    }

    /** Gives each piece in its own read, as a pipe may. */
    private static final class Chunks extends InputStream {
        private final Deque<byte[]> pieces = new ArrayDeque<>();

        Chunks(String... pieces) {
            Arrays.stream(pieces).map(p -> p.getBytes(StandardCharsets.UTF_8)).forEach(this.pieces::add);
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            byte[] piece = pieces.poll();
            if (piece == null) {
                return -1;
            }
            int n = Math.min(length, piece.length);
            System.arraycopy(piece, 0, buffer, offset, n);
            if (n < piece.length) {
                pieces.addFirst(Arrays.copyOfRange(piece, n, piece.length));
            }
            return n;
        }
    }
}
