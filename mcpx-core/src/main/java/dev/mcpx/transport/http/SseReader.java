package dev.mcpx.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Parses an SSE stream by the HTML rules: lines end in CRLF, LF or CR; {@code data:} lines join
 * with LF; {@code event:}, {@code id:}, {@code retry:}; lines starting with {@code :} are comments;
 * an empty line dispatches. An event larger than {@code maxEventBytes} fails the stream with
 * {@link SseLimitException} instead of exhausting memory.
 */
public final class SseReader {

    private final InputStream in;
    private final int maxEventBytes;
    // own buffer and line bytes: a locked read() and write() per byte cost more than the parsing
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;
    private byte[] line = new byte[256];
    private int lineLength;
    private int eventBytes;
    private boolean lastWasCr;
    private String lastEventId;
    private long retryMillis = -1;

    public SseReader(InputStream in, int maxEventBytes) {
        this.in = in;
        this.maxEventBytes = maxEventBytes;
    }

    /** The last event id seen on this stream (the value for {@code Last-Event-ID}), or null. */
    public String lastEventId() {
        return lastEventId;
    }

    /** The reconnection time the server asked for with {@code retry:}, or -1. */
    public long retryMillis() {
        return retryMillis;
    }

    /** The next event, or null at end of stream. An event cut off by EOF is not dispatched. */
    public SseEvent next() throws IOException {
        StringBuilder data = null;
        String event = null;
        eventBytes = 0;
        while (true) {
            String l = readLine();
            if (l == null) {
                return null;
            }
            if (l.isEmpty()) {
                if (data == null) {
                    event = null;
                    eventBytes = 0;
                    continue;
                }
                return new SseEvent(lastEventId, event == null || event.isEmpty() ? "message" : event, data.toString());
            }
            if (l.charAt(0) == ':') {
                continue;
            }
            int colon = l.indexOf(':');
            String field = colon < 0 ? l : l.substring(0, colon);
            String value = colon < 0 ? "" : l.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "data" -> {
                    if (data == null) {
                        data = new StringBuilder(value);
                    } else {
                        data.append('\n').append(value);
                    }
                }
                case "event" -> event = value;
                case "id" -> {
                    if (value.indexOf('\0') < 0) {
                        lastEventId = value;
                    }
                }
                case "retry" -> {
                    if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9') && value.length() < 12) {
                        retryMillis = Long.parseLong(value);
                    }
                }
                default -> {
                    // unknown fields are ignored, as the SSE rules say
                }
            }
        }
    }

    private String readLine() throws IOException {
        lineLength = 0;
        while (true) {
            if (position == limit) {
                int read = in.read(buffer, 0, buffer.length);
                if (read < 0) {
                    return null;
                }
                position = 0;
                limit = read;
                continue;
            }
            if (lastWasCr) {
                lastWasCr = false;
                if (buffer[position] == '\n') {
                    position++;
                    continue;
                }
            }
            int start = position;
            while (position < limit) {
                byte b = buffer[position];
                if (b == '\r' || b == '\n') {
                    append(start, position);
                    position++;
                    lastWasCr = b == '\r';
                    return new String(line, 0, lineLength, StandardCharsets.UTF_8);
                }
                position++;
            }
            append(start, position);
        }
    }

    private void append(int from, int to) throws SseLimitException {
        int count = to - from;
        eventBytes += count;
        if (eventBytes > maxEventBytes) {
            throw new SseLimitException("SSE event exceeds the limit of " + maxEventBytes + " bytes (maxSseEventBytes)");
        }
        if (lineLength + count > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + count));
        }
        System.arraycopy(buffer, from, line, lineLength, count);
        lineLength += count;
    }

    /** An SSE event over the size limit. */
    public static final class SseLimitException extends IOException {
        private static final long serialVersionUID = 1L;

        public SseLimitException(String message) {
            super(message);
        }
    }
}
