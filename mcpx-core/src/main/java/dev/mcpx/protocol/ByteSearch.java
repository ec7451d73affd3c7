package dev.mcpx.protocol;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Searches of message bytes eight at a time: a line's end, a JSON string's end. Every byte of a
 * message is searched twice or more on its way through (its line, then its strings), and at C1, as
 * bin/mcpx runs on 2 cores, a loop of a byte at a time costs about three times as much as reading
 * eight bytes as one long and testing them together.
 */
public final class ByteSearch {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LINE_FEEDS = '\n' * ONES;
    private static final long QUOTES = '"' * ONES;
    private static final long BACKSLASHES = '\\' * ONES;
    private static final long SPACES = ' ' * ONES;

    private ByteSearch() {
    }

    /** The index of the first LF in {@code bytes[from, to)}, or -1. */
    public static int indexOfLineFeed(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long found = zeroBytes((long) LONGS.get(bytes, i) ^ LINE_FEEDS);
            if (found != 0) {
                return i + firstByte(found);
            }
        }
        for (; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * The index of the first byte in {@code bytes[from, to)} that a JSON string's text cannot hold
     * as it is: a quote, a backslash, a control char or any byte beyond ASCII; {@code to} if none.
     */
    static int endOfPlainJsonText(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            // below a space is found as a borrow, valid because bytes beyond ASCII are caught by their own high bit
            long found = (word | (word - SPACES) & ~word | zeroBytes(word ^ QUOTES) | zeroBytes(word ^ BACKSLASHES)) & HIGH_BITS;
            if (found != 0) {
                return i + firstByte(found);
            }
        }
        for (; i < to; i++) {
            byte b = bytes[i];
            if (b < ' ' || b == '"' || b == '\\') {
                return i;
            }
        }
        return to;
    }

    /**
     * A high bit for each zero byte of {@code word}, exact for the lowest one (a borrow can mark a
     * byte above it, never one below), which is the only one used.
     */
    private static long zeroBytes(long word) {
        return (word - ONES) & ~word & HIGH_BITS;
    }

    private static int firstByte(long highBits) {
        return Long.numberOfTrailingZeros(highBits) >>> 3;
    }
}
