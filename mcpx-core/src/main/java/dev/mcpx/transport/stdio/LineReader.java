package dev.mcpx.transport.stdio;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads LF-terminated UTF-8 lines with a size limit: a longer line is skipped to its end and
 * reported as {@link Line.TooLong}, so one runaway line neither exhausts memory nor desyncs
 * the stream.
 */
final class LineReader {

    sealed interface Line {
        record Text(String value) implements Line {
        }

        record TooLong(String excerpt) implements Line {
        }
    }

    private final InputStream in;
    private final int maxBytes;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(1024);

    LineReader(InputStream in, int maxBytes) {
        this.in = new BufferedInputStream(in, 64 * 1024);
        this.maxBytes = maxBytes;
    }

    /** The next line, or null at end of stream (a last line without LF still counts). */
    Line next() throws IOException {
        buffer.reset();
        boolean tooLong = false;
        String excerpt = null;
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (tooLong) {
                    return new Line.TooLong(excerpt);
                }
                return buffer.size() == 0 ? null : text();
            }
            if (b == '\n') {
                return tooLong ? new Line.TooLong(excerpt) : text();
            }
            if (tooLong) {
                continue;
            }
            if (buffer.size() >= maxBytes) {
                tooLong = true;
                byte[] head = buffer.toByteArray();
                excerpt = new String(head, 0, Math.min(head.length, 200), StandardCharsets.UTF_8);
                buffer.reset();
                continue;
            }
            buffer.write(b);
        }
    }

    private Line text() {
        String line = buffer.toString(StandardCharsets.UTF_8);
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        return new Line.Text(line);
    }
}
