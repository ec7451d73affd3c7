package dev.mcpx.testkit.modern;

/** How a broken response stream ends: in every mode the request has already been executed. */
public enum BreakMode {
    /** SSE headers and one progress event, then the connection is aborted mid-stream. */
    ABORT,
    /** SSE headers and one progress event, then the stream ends cleanly without the response. */
    END,
    /** 200 with an empty body. */
    EMPTY
}
