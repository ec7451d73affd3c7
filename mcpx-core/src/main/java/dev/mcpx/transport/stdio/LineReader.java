package dev.mcpx.transport.stdio;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads LF-terminated UTF-8 lines with a size limit: a longer line is skipped to its end and
 * reported as {@link Line.TooLong}, so one runaway line neither exhausts memory nor desyncs
 * the stream. With {@code scanOverflow}, the skipped line is scanned on the way for whose
 * answer it is ({@link ResponseHead}), still without being kept.
 */
final class LineReader {

    sealed interface Line {
        /** One line's UTF-8 bytes, without its LF (or CR LF): decoded straight from them, never via a String. */
        record Text(byte[] bytes) implements Line {
            Text(String value) {
                this(value.getBytes(StandardCharsets.UTF_8));
            }

            String value() {
                return new String(bytes, StandardCharsets.UTF_8);
            }

            @Override
            public boolean equals(Object other) {
                return other instanceof Text text && Arrays.equals(bytes, text.bytes);
            }

            @Override
            public int hashCode() {
                return Arrays.hashCode(bytes);
            }

            @Override
            public String toString() {
                return "Text[" + value() + "]";
            }
        }

        /** {@code head}: what the scan found ({@link ResponseHead#UNKNOWN} when not scanned). */
        record TooLong(String excerpt, ResponseHead head) implements Line {
        }
    }

    private final InputStream in;
    private final int maxBytes;
    private final boolean scanOverflow;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(1024);

    LineReader(InputStream in, int maxBytes, boolean scanOverflow) {
        this.in = new BufferedInputStream(in, 64 * 1024);
        this.maxBytes = maxBytes;
        this.scanOverflow = scanOverflow;
    }

    /** The next line, or null at end of stream (a last line without LF still counts). */
    Line next() throws IOException {
        buffer.reset();
        while (true) {
            int b = in.read();
            if (b < 0) {
                return buffer.size() == 0 ? null : text();
            }
            if (b == '\n') {
                return text();
            }
            if (buffer.size() >= maxBytes) {
                buffer.write(b);
                return tooLong();
            }
            buffer.write(b);
        }
    }

    private Line tooLong() throws IOException {
        byte[] head = buffer.toByteArray();
        buffer.reset();
        String excerpt = new String(head, 0, Math.min(head.length, 200), StandardCharsets.UTF_8);
        RestOfLine rest = new RestOfLine(in);
        ResponseHead scanned = scanOverflow
                ? ResponseHead.scan(new SequenceInputStream(new ByteArrayInputStream(head), rest))
                : ResponseHead.UNKNOWN;
        rest.skipToEnd();
        return new Line.TooLong(excerpt, scanned);
    }

    private Line text() {
        byte[] line = buffer.toByteArray();
        return new Line.Text(line.length > 0 && line[line.length - 1] == '\r' ? Arrays.copyOf(line, line.length - 1) : line);
    }

    /** The bytes of the current line up to (and consuming) its LF; end of stream after it. */
    private static final class RestOfLine extends InputStream {

        private final InputStream in;
        private boolean ended;

        RestOfLine(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            if (ended) {
                return -1;
            }
            int b = in.read();
            if (b < 0 || b == '\n') {
                ended = true;
                return -1;
            }
            return b;
        }

        @Override
        public int read(byte[] into, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int n = 0;
            while (n < len) {
                int b = read();
                if (b < 0) {
                    break;
                }
                into[off + n++] = (byte) b;
            }
            return n == 0 ? -1 : n;
        }

        @Override
        public void close() {
            // the parser closes what it reads; the child's stdout stays open
        }

        void skipToEnd() throws IOException {
            while (read() >= 0) {
                // the rest of the over-long line is not kept
            }
        }
    }
}
