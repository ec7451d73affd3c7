package dev.mcpx.transport;

/** The wire a transport speaks, as {@code /status} names it. */
public enum TransportKind {
    STDIO("stdio"),
    STREAMABLE_HTTP("streamable-http"),
    HTTP_SSE("sse");

    private final String label;

    TransportKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
