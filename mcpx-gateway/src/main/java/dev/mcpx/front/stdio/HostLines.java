package dev.mcpx.front.stdio;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a host's newline-delimited messages with a bound: a line longer than the limit is
 * skipped to its end (so the next line is read whole) and reported, never held in memory.
 */
final class HostLines {

    sealed interface Line {
        record Text(String value) implements Line {
        }

        record TooLong() implements Line {
        }
    }

    private final InputStream in;
    private final int limit;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int filled;

    HostLines(InputStream in, int limit) {
        this.in = in;
        this.limit = limit;
    }

    /** The next line without its line ending, or null at the end of the input. */
    Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean over = false;
        while (true) {
            if (position == filled) {
                filled = in.read(buffer);
                position = 0;
                if (filled < 0) {
                    filled = 0;
                    return line.size() == 0 && !over ? null : finish(line, over);
                }
            }
            int start = position;
            while (position < filled && buffer[position] != '\n') {
                position++;
            }
            int length = position - start;
            if (!over && line.size() + length > limit) {
                over = true;
                line.reset();
            }
            if (!over) {
                line.write(buffer, start, length);
            }
            if (position < filled) {
                position++;
                return finish(line, over);
            }
        }
    }

    private static Line finish(ByteArrayOutputStream line, boolean over) {
        if (over) {
            return new Line.TooLong();
        }
        String text = line.toString(StandardCharsets.UTF_8);
        return new Line.Text(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
    }
}
