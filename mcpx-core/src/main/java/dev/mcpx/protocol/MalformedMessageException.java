package dev.mcpx.protocol;

/**
 * Input that is not a valid JSON-RPC 2.0 message. Carries the JSON-RPC error to answer with
 * ({@code -32700} for unparseable JSON, {@code -32600} for a structurally invalid message) and,
 * when it could be read, the id of the offending request so the answer can name it.
 */
public final class MalformedMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public enum Kind {
        NOT_JSON,
        TOO_LARGE,
        NOT_AN_OBJECT,
        BATCH,
        WRONG_VERSION,
        BAD_ID,
        MISSING_METHOD,
        BAD_PARAMS,
        NOT_A_MESSAGE
    }

    private final Kind kind;
    private final transient RequestId id;

    public MalformedMessageException(Kind kind, String message, RequestId id) {
        super(message);
        this.kind = kind;
        this.id = id;
    }

    public Kind kind() {
        return kind;
    }

    /** The id of the request, when one could be read; otherwise null. */
    public RequestId id() {
        return id;
    }

    public JsonRpcError toError() {
        int code = switch (kind) {
            case NOT_JSON -> ErrorCodes.PARSE_ERROR;
            default -> ErrorCodes.INVALID_REQUEST;
        };
        return JsonRpcError.of(code, getMessage());
    }
}
