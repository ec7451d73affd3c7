package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.RequestId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines split or joined in any way by the pipe come out the same, as bytes. */
class LineReaderTest {

    @Test
    void linesThatArriveInOneReadAreAllReturnedBeforeTheStreamIsReadAgain() throws IOException {
        // a progress notification and the answer often come in one read; a second read would block here
        LineReader reader = new LineReader(Chunks.thenBlocks("{\"a\":1}\n{\"b\":2}\r\n{\"c\":3}\n"), 100, true);
        assertThat(text(reader.next())).isEqualTo("{\"a\":1}");
        assertThat(text(reader.next())).isEqualTo("{\"b\":2}");
        assertThat(text(reader.next())).isEqualTo("{\"c\":3}");
    }

    @Test
    void aLineSplitOverManyReadsComesOutWhole() throws IOException {
        LineReader reader = new LineReader(new Chunks("{\"te", "xt\":\"h\u00e9\u20ac", "\uD83D\uDE00\"}\n{\"n", "\":2}", "\n"), 100, true);
        assertThat(text(reader.next())).isEqualTo("{\"text\":\"h\u00e9\u20ac\uD83D\uDE00\"}");
        assertThat(text(reader.next())).isEqualTo("{\"n\":2}");
        assertThat(reader.next()).isNull();
    }

    @Test
    void aLastLineWithoutLfCountsAndEmptyLinesStay() throws IOException {
        assertThat(all(new LineReader(new Chunks("a\n\nb"), 10, false))).containsExactly("a", "", "b");
        assertThat(all(new LineReader(new Chunks(""), 10, false))).isEmpty();
    }

    @Test
    void theLimitCountsBytesBeforeTheLf() throws IOException {
        LineReader reader = new LineReader(new Chunks("12345\n123456\nok\n1234567"), 5, false);
        assertThat(text(reader.next())).isEqualTo("12345");
        assertThat(reader.next()).isInstanceOfSatisfying(LineReader.Line.TooLong.class,
                t -> assertThat(t.excerpt()).isEqualTo("123456"));
        assertThat(text(reader.next())).isEqualTo("ok");
        assertThat(reader.next()).isInstanceOf(LineReader.Line.TooLong.class);
        assertThat(reader.next()).isNull();
    }

    @Test
    void anOverLongLineIsSkippedToItsEndWhereverTheReadsSplitIt() throws IOException {
        String big = "{\"result\":{\"text\":\"" + "x".repeat(50_000) + "\"},\"jsonrpc\":\"2.0\",\"id\":7}";
        List<String> chunks = new ArrayList<>();
        String stream = "{\"id\":1}\n" + big + "\n{\"id\":2}\n";
        for (int i = 0; i < stream.length(); i += 777) {
            chunks.add(stream.substring(i, Math.min(stream.length(), i + 777)));
        }
        LineReader reader = new LineReader(new Chunks(chunks.toArray(String[]::new)), 1000, true);
        assertThat(text(reader.next())).isEqualTo("{\"id\":1}");
        assertThat(reader.next()).isInstanceOfSatisfying(LineReader.Line.TooLong.class,
                t -> assertThat(t.head().responseId()).isEqualTo(RequestId.of(7)));
        assertThat(text(reader.next())).isEqualTo("{\"id\":2}");
        assertThat(reader.next()).isNull();
    }

    @Test
    void linesLongerThanTheFirstBufferStillFitUnderALargeLimit() throws IOException {
        String line = "y".repeat(300_000);
        LineReader reader = new LineReader(new ByteArrayInputStream((line + "\nz\n").getBytes(StandardCharsets.UTF_8)),
                1_000_000, true);
        assertThat(text(reader.next())).isEqualTo(line);
        assertThat(text(reader.next())).isEqualTo("z");
    }

    @Test
    void aLineOfSeveralMegabytesIsNotHeldOnceTheNextIsRead() throws IOException {
        String big = "y".repeat(3_000_000);
        LineReader reader = new LineReader(new ByteArrayInputStream((big + "\n" + big + "!\nz\n" + "w".repeat(200_000) + "\nv\n")
                .getBytes(StandardCharsets.UTF_8)), 3_000_000, true);
        int small = reader.retainedBytes();
        assertThat(text(reader.next())).isEqualTo(big);
        assertThat(reader.next()).isInstanceOf(LineReader.Line.TooLong.class);
        assertThat(reader.retainedBytes()).isGreaterThan(3_000_000);
        assertThat(text(reader.next())).isEqualTo("z");
        assertThat(reader.retainedBytes()).isEqualTo(small);
        assertThat(text(reader.next())).hasSize(200_000);
        assertThat(text(reader.next())).isEqualTo("v");
        assertThat(reader.retainedBytes()).as("a line under a MB keeps its array for the next").isGreaterThan(small);
    }

    private static String text(LineReader.Line line) {
        assertThat(line).isInstanceOf(LineReader.Line.Text.class);
        return ((LineReader.Line.Text) line).value();
    }

    private static List<String> all(LineReader reader) throws IOException {
        List<String> lines = new ArrayList<>();
        for (LineReader.Line line = reader.next(); line != null; line = reader.next()) {
            lines.add(text(line));
        }
        return lines;
    }

    /** A pipe that hands out the given chunks one read each, then ends. */
    private static final class Chunks extends InputStream {
        private final Deque<byte[]> chunks = new ArrayDeque<>();
        private boolean blocksAtTheEnd;

        Chunks(String... chunks) {
            for (String chunk : chunks) {
                this.chunks.add(chunk.getBytes(StandardCharsets.UTF_8));
            }
        }

        /** A pipe whose writer stays: a read after the chunks would block for good, so it fails the test. */
        static Chunks thenBlocks(String... chunks) {
            Chunks pipe = new Chunks(chunks);
            pipe.blocksAtTheEnd = true;
            return pipe;
        }

        @Override
        public int read() {
            throw new AssertionError("a byte at a time");
        }

        @Override
        public int read(byte[] into, int off, int len) {
            if (chunks.isEmpty()) {
                if (blocksAtTheEnd) {
                    throw new AssertionError("read while a whole line was still buffered: this read would block");
                }
                return -1;
            }
            byte[] chunk = chunks.peek();
            int n = Math.min(len, chunk.length);
            System.arraycopy(chunk, 0, into, off, n);
            chunks.pop();
            if (n < chunk.length) {
                byte[] rest = new byte[chunk.length - n];
                System.arraycopy(chunk, n, rest, 0, rest.length);
                chunks.push(rest);
            }
            return n;
        }
    }
}
