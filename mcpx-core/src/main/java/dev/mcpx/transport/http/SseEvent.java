package dev.mcpx.transport.http;

/**
 * One dispatched Server-Sent Event. {@code id} is the last event id in effect when it was
 * dispatched (may be null); {@code event} defaults to {@code "message"}.
 */
public record SseEvent(String id, String event, String data) {
}
