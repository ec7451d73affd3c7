package dev.mcpx.transport.stdio;

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
        record Text(String value) implements Line {
        }

        /** {@code head}: what the scan found ({@link ResponseHead#UNKNOWN} when not scanned). */
        record TooLong(String excerpt, ResponseHead head) implements Line {
        }
    }

    private final InputStream in;
    private final int maxBytes;
    private final boolean scanOverflow;
    /** Bytes read from {@code in} not yet consumed: {@code [pos, limit)}. */
    private final byte[] chunk = new byte[64 * 1024];
    private int pos;
    private int limit;
    /** The current line while it spans more than one chunk. */
    private byte[] line = new byte[1024];
    private int lineLength;

    /**
     * Scans its own buffer for the LF: a byte at a time through a buffered stream took a lock per
     * byte (twice, with the line buffer's), a cost every stdio message paid.
     */
    LineReader(InputStream in, int maxBytes, boolean scanOverflow) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.scanOverflow = scanOverflow;
    }

    /** The next line, or null at end of stream (a last line without LF still counts). */
    Line next() throws IOException {
        lineLength = 0;
        while (true) {
            if (pos == limit && !fill()) {
                return lineLength == 0 ? null : text(line, 0, lineLength);
            }
            int newline = indexOfNewline(pos, limit);
            int content = (newline < 0 ? limit : newline) - pos;
            if (lineLength + content > maxBytes) {
                // one byte past the limit makes the line too long, as an LF right at the limit does not
                int taken = maxBytes - lineLength + 1;
                append(pos, taken);
                pos += taken;
                return tooLong();
            }
            if (newline >= 0 && lineLength == 0) {
                Line text = text(chunk, pos, content);
                pos = newline + 1;
                return text;
            }
            append(pos, content);
            pos += content;
            if (newline >= 0) {
                pos++;
                return text(line, 0, lineLength);
            }
        }
    }

    private int indexOfNewline(int from, int to) {
        for (int i = from; i < to; i++) {
            if (chunk[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Reads more into the empty chunk; false at end of stream. */
    private boolean fill() throws IOException {
        int n = in.read(chunk, 0, chunk.length);
        while (n == 0) {
            n = in.read(chunk, 0, chunk.length);
        }
        pos = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }

    private void append(int from, int length) {
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        System.arraycopy(chunk, from, line, lineLength, length);
        lineLength += length;
    }

    private Line tooLong() throws IOException {
        byte[] head = Arrays.copyOf(line, lineLength);
        lineLength = 0;
        String excerpt = new String(head, 0, Math.min(head.length, 200), StandardCharsets.UTF_8);
        RestOfLine rest = new RestOfLine();
        ResponseHead scanned = scanOverflow
                ? ResponseHead.scan(new SequenceInputStream(new ByteArrayInputStream(head), rest))
                : ResponseHead.UNKNOWN;
        rest.skipToEnd();
        return new Line.TooLong(excerpt, scanned);
    }

    private static Line text(byte[] bytes, int from, int length) {
        int end = length > 0 && bytes[from + length - 1] == '\r' ? length - 1 : length;
        return new Line.Text(new String(bytes, from, end, StandardCharsets.UTF_8));
    }

    /** The bytes of the current line up to (and consuming) its LF; end of stream after it. */
    private final class RestOfLine extends InputStream {

        private boolean ended;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] into, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (ended || (pos == limit && !fill())) {
                ended = true;
                return -1;
            }
            int newline = indexOfNewline(pos, Math.min(limit, pos + len));
            int n = (newline < 0 ? Math.min(limit, pos + len) : newline) - pos;
            System.arraycopy(chunk, pos, into, off, n);
            pos += n;
            if (newline >= 0) {
                pos++;
                ended = true;
                return n == 0 ? -1 : n;
            }
            return n;
        }

        @Override
        public void close() {
            // the parser closes what it reads; the child's stdout stays open
        }

        void skipToEnd() throws IOException {
            while (!ended) {
                if (pos == limit && !fill()) {
                    ended = true;
                    return;
                }
                int newline = indexOfNewline(pos, limit);
                // the rest of the over-long line is not kept
                pos = newline < 0 ? limit : newline + 1;
                ended = newline >= 0;
            }
        }
    }
}
