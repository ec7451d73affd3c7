package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.RequestId;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Lines come out whole however the child's output is cut into reads: across read boundaries,
 * with CRLF, UTF-8 split mid-character, a last line without LF; an over-long line is skipped to
 * its end and the next line is intact.
 */
class LineReaderTest {

    private static final int LIMIT = 64;

    /** Hands out at most {@code step} bytes per read, as a pipe may. */
    private static InputStream trickle(String text, int step) {
        return new FilterInputStream(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, step));
            }
        };
    }

    private static List<String> all(InputStream in) throws IOException {
        LineReader reader = new LineReader(in, LIMIT, true);
        List<String> lines = new ArrayList<>();
        for (LineReader.Line line = reader.next(); line != null; line = reader.next()) {
            lines.add(switch (line) {
                case LineReader.Line.Text text -> text.value();
                case LineReader.Line.TooLong tooLong -> "TOO LONG " + tooLong.head().responseId() + " " + tooLong.excerpt().length();
            });
        }
        return lines;
    }

    @Test
    void linesComeOutWholeWhateverTheReadSizes() throws IOException {
        String text = "{\"a\":1}\r\n{\"b\":\"ünïcödé ✓\"}\n\n{\"c\":3}";
        for (int step : new int[] {1, 2, 3, 7, 64 * 1024}) {
            assertThat(all(trickle(text, step))).as("reads of %d bytes", step)
                    .containsExactly("{\"a\":1}", "{\"b\":\"ünïcödé ✓\"}", "", "{\"c\":3}");
        }
    }

    @Test
    void aLineAtTheLimitPassesAndOneByteMoreIsTooLongWithoutLosingTheNextLine() throws IOException {
        String atLimit = "x".repeat(LIMIT);
        String tooLong = "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"t\":\"" + "y".repeat(200) + "\"}}";
        String text = atLimit + "\n" + tooLong + "\n{\"next\":true}\n";
        for (int step : new int[] {1, 5, 64 * 1024}) {
            assertThat(all(trickle(text, step))).as("reads of %d bytes", step)
                    .containsExactly(atLimit, "TOO LONG " + RequestId.of(9) + " " + (LIMIT + 1), "{\"next\":true}");
        }
    }

    @Test
    void anOverLongLastLineWithoutLfEndsTheStream() throws IOException {
        assertThat(all(trickle("ok\n" + "z".repeat(3 * LIMIT), 10))).containsExactly("ok", "TOO LONG null " + (LIMIT + 1));
    }
}
