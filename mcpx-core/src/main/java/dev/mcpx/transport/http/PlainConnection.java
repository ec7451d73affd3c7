package dev.mcpx.transport.http;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One kept-alive HTTP/1.1 connection over plain TCP, used by one thread at a time with blocking
 * reads and writes: the thread that writes a request reads its answer, with no selector in
 * between. Reads honour a timeout; closing the connection from another thread ends a blocked read.
 */
final class PlainConnection implements AutoCloseable {

    /** The status line and headers together; a longer head is refused, not buffered without end. */
    static final int MAX_HEAD_BYTES = 64 * 1024;

    private final SocketChannel channel;
    private final InputStream socketIn;
    private final OutputStream socketOut;
    private final byte[] buffer = new byte[16 * 1024];
    /** Where {@link #stillOpen} reads into: a direct buffer, which the channel reads into without a copy. */
    private final ByteBuffer probe = ByteBuffer.allocateDirect(1);
    private int position;
    private int limit;
    /** The current answer's body ended cleanly and the server did not ask to close. */
    private boolean reusable;
    /** When reads must have ended (System.nanoTime), or 0 for no bound. */
    private long deadline;

    private PlainConnection(SocketChannel channel) throws IOException {
        this.channel = channel;
        this.socketIn = channel.socket().getInputStream();
        this.socketOut = channel.socket().getOutputStream();
    }

    static PlainConnection open(URI url, Duration connectTimeout) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            int port = url.getPort() < 0 ? 80 : url.getPort();
            channel.socket().connect(new InetSocketAddress(url.getHost(), port), (int) Math.min(Integer.MAX_VALUE,
                    Math.max(1, connectTimeout.toMillis())));
            channel.socket().setTcpNoDelay(true);
            return new PlainConnection(channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Whether an idle connection can carry another request: nothing unread is buffered, and the
     * server has neither closed it (as it does after its keep-alive timeout or when it restarts)
     * nor sent anything unasked. A non-blocking read tells, at the cost of one system call.
     */
    boolean stillOpen() {
        if (position < limit || !channel.isOpen()) {
            return false;
        }
        try {
            probe.clear();
            channel.configureBlocking(false);
            int read = channel.read(probe);
            channel.configureBlocking(true);
            return read == 0;
        } catch (IOException e) {
            return false;
        }
    }

    void write(byte[] request) throws IOException {
        reusable = false;
        socketOut.write(request);
    }

    /**
     * Reads the next answer's head, skipping interim (1xx) ones. Every read from now on, the
     * body's included, ends by {@code within} from now ({@link java.net.SocketTimeoutException}),
     * however slowly the bytes come, until {@link #unbounded}.
     */
    Head readHead(Duration within) throws IOException {
        deadline = System.nanoTime() + Math.max(1, within.toNanos());
        while (true) {
            Head head = readOneHead();
            if (head.status() >= 200 || head.status() == 101) {
                return head;
            }
        }
    }

    private Head readOneHead() throws IOException {
        int budget = MAX_HEAD_BYTES;
        String statusLine = readLine(budget);
        if (statusLine == null) {
            throw new EOFException("the connection closed before an answer");
        }
        budget -= statusLine.length() + 2;
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
            throw new ProtocolException("not an HTTP/1.x status line: " + excerpt(statusLine));
        }
        int status;
        try {
            status = Integer.parseInt(statusLine.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new ProtocolException("not an HTTP status: " + excerpt(statusLine));
        }
        boolean http10 = statusLine.startsWith("HTTP/1.0");
        Map<String, String> headers = new HashMap<>();
        while (true) {
            String line = readLine(budget);
            if (line == null) {
                throw new EOFException("the connection closed in the answer's head");
            }
            budget -= line.length() + 2;
            if (line.isEmpty()) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new ProtocolException("not a header line: " + excerpt(line));
            }
            headers.putIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        String connection = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
        boolean keepAlive = http10 ? connection.contains("keep-alive") : !connection.contains("close");
        return new Head(status, headers, keepAlive);
    }

    /** The body of an answer with {@code head}: read it to its end, or close it (which closes the connection). */
    InputStream body(Head head) throws IOException {
        if (head.status() == 204 || head.status() == 304 || head.status() == 101) {
            reusable = head.keepAlive() && head.status() != 101;
            return InputStream.nullInputStream();
        }
        String encoding = head.headers().get("transfer-encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return new ChunkedBody(head.keepAlive());
        }
        String length = head.headers().get("content-length");
        if (length != null) {
            long bytes;
            try {
                bytes = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw new ProtocolException("not a Content-Length: " + excerpt(length));
            }
            if (bytes < 0) {
                throw new ProtocolException("a negative Content-Length: " + bytes);
            }
            return new FixedBody(bytes, head.keepAlive());
        }
        return new FixedBody(Long.MAX_VALUE, false);
    }

    /** The length {@code body} (from {@link #body}) declared, or -1 when it runs to a last chunk or to the close. */
    static long declaredLength(InputStream body) {
        return body instanceof FixedBody fixed && fixed.remaining != Long.MAX_VALUE ? fixed.remaining : -1;
    }

    /** Lifts the bound on reads: an event stream may rightly stay quiet for long. */
    void unbounded() {
        deadline = 0;
    }

    /** Whether the last answer's body was read to its end on a connection the server keeps open. */
    boolean reusable() {
        return reusable && channel.isOpen();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closed either way
        }
    }

    private int fill() throws IOException {
        position = 0;
        limit = 0;
        int n = readSocket(buffer, 0, buffer.length);
        if (n > 0) {
            limit = n;
        }
        return n;
    }

    /** A line without its CR LF (a bare LF ends one too), or null at the end of the stream before any byte. */
    private String readLine(int budget) throws IOException {
        StringBuilder line = null;
        while (true) {
            if (position == limit && fill() < 0) {
                if (line == null) {
                    return null;
                }
                throw new EOFException("the connection closed within a line");
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            int end = position;
            boolean complete = position < limit;
            if (complete) {
                position++;
            }
            if (line == null) {
                line = new StringBuilder(Math.max(16, end - start));
            }
            line.append(new String(buffer, start, end - start, StandardCharsets.ISO_8859_1));
            if (line.length() > budget) {
                throw new ProtocolException("the answer's head is longer than " + MAX_HEAD_BYTES + " bytes");
            }
            if (complete) {
                int length = line.length();
                if (length > 0 && line.charAt(length - 1) == '\r') {
                    line.setLength(length - 1);
                }
                return line.toString();
            }
        }
    }

    private int readBuffered(byte[] into, int offset, int length) throws IOException {
        if (position == limit) {
            if (length >= buffer.length) {
                return readSocket(into, offset, length);
            }
            if (fill() < 0) {
                return -1;
            }
        }
        int n = Math.min(length, limit - position);
        System.arraycopy(buffer, position, into, offset, n);
        position += n;
        return n;
    }

    private int readSocket(byte[] into, int offset, int length) throws IOException {
        int timeout = 0;
        if (deadline != 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("no answer within the request's deadline");
            }
            timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, left / 1_000_000));
        }
        channel.socket().setSoTimeout(timeout);
        return socketIn.read(into, offset, length);
    }

    private static String excerpt(String text) {
        return text.length() <= 100 ? text : text.substring(0, 100) + "...";
    }

    /** A status line and headers, by lower-case name, the first value of each. */
    record Head(int status, Map<String, String> headers, boolean keepAlive) {
    }

    /** A body of a known length, or (length Long.MAX_VALUE) one that ends when the server closes. */
    /** An answer's body on this connection: reads of many bytes are what it implements. */
    private abstract static class Body extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }
    }

    private final class FixedBody extends Body {
        private long remaining;
        private final boolean keepAlive;

        FixedBody(long length, boolean keepAlive) {
            this.remaining = length;
            this.keepAlive = keepAlive;
            if (length == 0) {
                reusable = keepAlive;
            }
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            if (remaining == 0) {
                return -1;
            }
            int n = readBuffered(into, offset, (int) Math.min(length, remaining));
            if (n < 0) {
                if (remaining == Long.MAX_VALUE) {
                    remaining = 0;
                    return -1;
                }
                throw new EOFException("the connection closed " + remaining + " bytes before the body's end");
            }
            if (remaining != Long.MAX_VALUE) {
                remaining -= n;
                if (remaining == 0) {
                    reusable = keepAlive;
                }
            }
            return n;
        }

        @Override
        public void close() {
            if (remaining != 0) {
                PlainConnection.this.close();
            }
        }
    }

    /** A chunked body (trailers read and dropped). */
    private final class ChunkedBody extends Body {
        private final boolean keepAlive;
        private long chunkLeft;
        private boolean afterChunk;
        private boolean ended;

        ChunkedBody(boolean keepAlive) {
            this.keepAlive = keepAlive;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            if (ended) {
                return -1;
            }
            if (chunkLeft == 0) {
                // a chunk's closing CR LF is read only now: a server may send it with the next chunk
                if (afterChunk) {
                    String end = readLine(2);
                    if (end == null || !end.isEmpty()) {
                        throw new ProtocolException("a chunk not followed by CR LF");
                    }
                    afterChunk = false;
                }
                chunkLeft = nextChunkSize();
                if (chunkLeft == 0) {
                    readTrailers();
                    ended = true;
                    reusable = keepAlive;
                    return -1;
                }
            }
            int n = readBuffered(into, offset, (int) Math.min(length, chunkLeft));
            if (n < 0) {
                throw new EOFException("the connection closed within a chunk");
            }
            chunkLeft -= n;
            afterChunk = chunkLeft == 0;
            return n;
        }

        private long nextChunkSize() throws IOException {
            String line = readLine(1024);
            if (line == null) {
                throw new EOFException("the connection closed before a chunk");
            }
            int extension = line.indexOf(';');
            String size = (extension < 0 ? line : line.substring(0, extension)).trim();
            try {
                long parsed = Long.parseLong(size, 16);
                if (parsed < 0) {
                    throw new NumberFormatException(size);
                }
                return parsed;
            } catch (NumberFormatException e) {
                throw new ProtocolException("not a chunk size: " + excerpt(line));
            }
        }

        private void readTrailers() throws IOException {
            int budget = MAX_HEAD_BYTES;
            while (true) {
                String line = readLine(budget);
                if (line == null) {
                    throw new EOFException("the connection closed in the trailers");
                }
                if (line.isEmpty()) {
                    return;
                }
                budget -= line.length() + 2;
            }
        }

        @Override
        public void close() {
            if (!ended) {
                PlainConnection.this.close();
            }
        }
    }
}
