package dev.mcpx.front.stdio;

import dev.mcpx.protocol.ByteSearch;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads a host's newline-delimited messages with a bound: a line longer than the limit is
 * skipped to its end (so the next line is read whole) and reported, never held in memory. A
 * line is handed over as its UTF-8 bytes, decoded straight from them: a String in between cost
 * a third of a large call's CPU (the char-based parser is several times slower than the byte one).
 */
final class HostLines {

    sealed interface Line {
        /** One line's bytes without its LF (or CR LF), valid until the next {@link #next}. */
        record Text(byte[] bytes, int offset, int length) implements Line {
            /** Whitespace only (JSON's, and the other ASCII blanks a String's isBlank takes). */
            boolean blank() {
                for (int i = offset; i < offset + length; i++) {
                    if (bytes[i] < 0 || !Character.isWhitespace(bytes[i])) {
                        return false;
                    }
                }
                return true;
            }
        }

        record TooLong() implements Line {
        }
    }

    /** One message of several MB must not keep its array for the life of the session. */
    static final int KEPT_BYTES = 1024 * 1024;

    private final InputStream in;
    private final int limit;
    /** What the last read brought and no line has taken yet: {@code [position, filled)}. */
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int filled;
    /** A line that spans reads, gathered up to the limit; kept for the next such line unless large. */
    private byte[] spanning = new byte[0];
    private int spanned;

    HostLines(InputStream in, int limit) {
        this.in = in;
        this.limit = limit;
    }

    /** The next line without its line ending, or null at the end of the input. */
    Line next() throws IOException {
        spanned = 0;
        if (spanning.length > KEPT_BYTES) {
            spanning = new byte[0];
        }
        boolean over = false;
        boolean started = false;
        while (true) {
            if (position == filled) {
                filled = in.read(buffer);
                position = 0;
                if (filled < 0) {
                    filled = 0;
                    return !started ? null : over ? new Line.TooLong() : text(spanning, 0, spanned);
                }
            }
            started = true;
            int start = position;
            int lineFeed = ByteSearch.indexOfLineFeed(buffer, position, filled);
            position = lineFeed < 0 ? filled : lineFeed;
            int length = position - start;
            boolean ended = position < filled;
            if (ended) {
                position++;
            }
            if (!over && spanned + length > limit) {
                over = true;
            }
            if (over) {
                if (ended) {
                    return new Line.TooLong();
                }
                continue;
            }
            if (ended && spanned == 0) {
                return text(buffer, start, length);
            }
            gather(start, length);
            if (ended) {
                return text(spanning, 0, spanned);
            }
        }
    }

    private void gather(int start, int length) {
        if (spanned + length > spanning.length) {
            spanning = Arrays.copyOf(spanning, Math.max(spanned + length, Math.min(limit, 2 * spanning.length + 8192)));
        }
        System.arraycopy(buffer, start, spanning, spanned, length);
        spanned += length;
    }

    /** What this reader holds on to between lines. */
    int retainedBytes() {
        return buffer.length + spanning.length;
    }

    private static Line text(byte[] bytes, int offset, int length) {
        return new Line.Text(bytes, offset, length > 0 && bytes[offset + length - 1] == '\r' ? length - 1 : length);
    }
}
