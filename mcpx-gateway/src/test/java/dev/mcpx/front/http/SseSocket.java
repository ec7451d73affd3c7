package dev.mcpx.front.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A host's HTTP/1.0 exchange on a raw socket, read one SSE event at a time, that it can drop
 * mid-stream like a host losing its network. HTTP/1.0 keeps the body unchunked (it ends with
 * the connection), so what is read is exactly what the gateway wrote.
 */
final class SseSocket implements AutoCloseable {

    /** One SSE event as sent: its id, retry and data fields (null when absent). */
    record Event(String id, String retry, String data) {

        boolean isPriming() {
            return id != null && data != null && data.isEmpty();
        }
    }

    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    private final Socket socket;
    private final BufferedReader in;

    private SseSocket(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(30_000);
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        String statusLine = in.readLine();
        status = Integer.parseInt(statusLine.split(" ")[1]);
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
    }

    static SseSocket post(int port, String sessionId, String body) throws IOException {
        byte[] payload = body.getBytes(StandardCharsets.UTF_8);
        return open(port, "POST", Map.of("Mcp-Session-Id", sessionId, "MCP-Protocol-Version", "2025-11-25",
                "Content-Type", "application/json", "Content-Length", Integer.toString(payload.length)), payload);
    }

    static SseSocket get(int port, String sessionId, String lastEventId) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>(Map.of("Mcp-Session-Id", sessionId,
                "MCP-Protocol-Version", "2025-11-25"));
        if (lastEventId != null) {
            headers.put("Last-Event-ID", lastEventId);
        }
        return open(port, "GET", headers, new byte[0]);
    }

    private static SseSocket open(int port, String method, Map<String, String> headers, byte[] payload)
            throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        StringBuilder head = new StringBuilder(method + " /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\n"
                + "Accept: application/json, text/event-stream\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(payload);
        out.flush();
        return new SseSocket(socket);
    }

    String contentType() {
        return headers.getOrDefault("content-type", "");
    }

    /** The next event (comments skipped), or null when the stream ended. */
    Event next() throws IOException {
        String id = null;
        String retry = null;
        StringBuilder data = null;
        boolean any = false;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isEmpty()) {
                if (any) {
                    return new Event(id, retry, data == null ? null : data.toString());
                }
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1).stripLeading();
            any = true;
            switch (field) {
                case "id" -> id = value;
                case "retry" -> retry = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> { }
            }
        }
        return null;
    }

    /** Every event until the stream ends. */
    List<Event> rest() throws IOException {
        List<Event> events = new ArrayList<>();
        for (Event event = next(); event != null; event = next()) {
            events.add(event);
        }
        return events;
    }

    /** The whole body of a non-SSE answer. */
    String body() throws IOException {
        StringBuilder body = new StringBuilder();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            body.append(line);
        }
        return body.toString();
    }

    /** Drops the connection with a reset, so the gateway's next write to it fails (as after a network loss it would, later). */
    @Override
    public void close() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }
}
