package dev.mcpx.transport.stdio;

import dev.mcpx.protocol.ByteSearch;
import java.io.ByteArrayInputStream;
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

    /** One message of several MB must not keep its array for the life of the upstream. */
    static final int KEPT_BYTES = 1024 * 1024;

    private final InputStream in;
    private final int maxBytes;
    private final boolean scanOverflow;
    /** What the last read brought and no line has taken yet: {@code [pos, limit)}. */
    private final byte[] chunk = new byte[64 * 1024];
    private int pos;
    private int limit;
    /** A line that spans reads, gathered up to the limit (one byte past it when too long): {@code [0, gathered)}. */
    private byte[] partial = new byte[0];
    private int gathered;

    LineReader(InputStream in, int maxBytes, boolean scanOverflow) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.scanOverflow = scanOverflow;
    }

    /**
     * The next line, or null at end of stream (a last line without LF still counts). Scans what
     * the last read brought for the LF (no lock and no call per byte); reads again only when no
     * whole line is left in it.
     */
    Line next() throws IOException {
        gathered = 0;
        if (partial.length > KEPT_BYTES) {
            partial = new byte[0];
        }
        while (true) {
            if (pos == limit && !fill()) {
                return gathered == 0 ? null : text(Arrays.copyOf(partial, gathered));
            }
            int lf = ByteSearch.indexOfLineFeed(chunk, pos, limit);
            int end = lf < 0 ? limit : lf;
            if (gathered + (end - pos) > maxBytes) {
                int room = maxBytes + 1 - gathered;
                gather(room);
                return tooLong();
            }
            if (lf >= 0 && gathered == 0) {
                byte[] line = Arrays.copyOfRange(chunk, pos, lf);
                pos = lf + 1;
                return text(line);
            }
            gather(end - pos);
            if (lf >= 0) {
                pos++;
                return text(Arrays.copyOf(partial, gathered));
            }
        }
    }

    private void gather(int length) {
        if (gathered + length > partial.length) {
            partial = Arrays.copyOf(partial, Math.max(gathered + length, Math.min(maxBytes + 1, 2 * partial.length + 8192)));
        }
        System.arraycopy(chunk, pos, partial, gathered, length);
        gathered += length;
        pos += length;
    }

    /** What this reader holds on to between lines. */
    int retainedBytes() {
        return chunk.length + partial.length;
    }


    /** Reads the next chunk; false at end of stream. */
    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(chunk, 0, chunk.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    /** The next byte of the stream, -1 at its end. */
    private int read() throws IOException {
        if (pos == limit && !fill()) {
            return -1;
        }
        return chunk[pos++] & 0xff;
    }

    private Line tooLong() throws IOException {
        String excerpt = new String(partial, 0, Math.min(gathered, 200), StandardCharsets.UTF_8);
        RestOfLine rest = new RestOfLine();
        ResponseHead scanned = scanOverflow
                ? ResponseHead.scan(new SequenceInputStream(new ByteArrayInputStream(partial, 0, gathered), rest))
                : ResponseHead.UNKNOWN;
        rest.skipToEnd();
        return new Line.TooLong(excerpt, scanned);
    }

    private static Line text(byte[] line) {
        return new Line.Text(line.length > 0 && line[line.length - 1] == '\r' ? Arrays.copyOf(line, line.length - 1) : line);
    }

    /** The bytes of the current line up to (and consuming) its LF; end of stream after it. */
    private final class RestOfLine extends InputStream {

        private boolean ended;

        @Override
        public int read() throws IOException {
            if (ended) {
                return -1;
            }
            int b = LineReader.this.read();
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
