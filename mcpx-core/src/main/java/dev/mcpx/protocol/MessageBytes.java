package dev.mcpx.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a message body of bounded size. {@link InputStream#readNBytes(int)} with a bound of
 * megabytes allocates a 16 KiB buffer and a copy for every body however small; this allocates
 * the declared length when there is one and otherwise grows from a small buffer.
 */
public final class MessageBytes {

    private static final int FIRST_BUFFER = 1024;

    private MessageBytes() {
    }

    /** Whether UTF-8 {@code bytes} are empty or white space only, as {@link String#isBlank} finds their text. */
    public static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return new String(bytes, StandardCharsets.UTF_8).isBlank();
            }
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The bytes of {@code in} to its end or to {@code max} bytes, whichever comes first, as
     * {@code in.readNBytes(max)} gives them; {@code declared} is the length the body declared
     * (-1: none), used only to size the buffer.
     */
    public static byte[] readAtMost(InputStream in, int max, long declared) throws IOException {
        if (max < 0) {
            throw new IllegalArgumentException("max < 0: " + max);
        }
        int size = (int) Math.min(max, declared >= 0 ? declared : FIRST_BUFFER);
        byte[] buffer = new byte[size];
        int filled = 0;
        while (filled < max) {
            if (filled == buffer.length) {
                // a full buffer: one byte more tells the end (the usual case when a length was declared) from more to come
                int next = in.read();
                if (next < 0) {
                    break;
                }
                buffer = Arrays.copyOf(buffer, (int) Math.min(max, Math.max(2L * buffer.length, FIRST_BUFFER)));
                buffer[filled++] = (byte) next;
                continue;
            }
            int read = in.read(buffer, filled, buffer.length - filled);
            if (read < 0) {
                break;
            }
            filled += read;
        }
        return filled == buffer.length ? buffer : Arrays.copyOf(buffer, filled);
    }
}
