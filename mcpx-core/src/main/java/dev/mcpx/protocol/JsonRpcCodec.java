package dev.mcpx.protocol;

import dev.mcpx.protocol.JsonRpcMessage.ErrorResponse;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.MalformedMessageException.Kind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Text {@literal <->} {@link JsonRpcMessage}. Decoding never throws anything but
 * {@link MalformedMessageException}; encoding produces one line (no raw newlines).
 */
public final class JsonRpcCodec {

    /** Default maximum message size: 16 MiB of characters. */
    public static final int DEFAULT_MAX_CHARS = 16 * 1024 * 1024;

    private final int maxChars;

    public JsonRpcCodec() {
        this(DEFAULT_MAX_CHARS);
    }

    public JsonRpcCodec(int maxChars) {
        if (maxChars <= 0) {
            throw new IllegalArgumentException("maxChars must be positive");
        }
        this.maxChars = maxChars;
    }

    public int maxChars() {
        return maxChars;
    }

    public JsonRpcMessage decode(String text) {
        if (text == null) {
            throw new MalformedMessageException(Kind.NOT_JSON, "empty message", null);
        }
        if (text.length() > maxChars) {
            throw new MalformedMessageException(Kind.TOO_LARGE,
                    "message of " + text.length() + " characters exceeds the limit of " + maxChars + " (maxMessageBytes)", null);
        }
        JsonNode tree;
        try {
            tree = Json.parse(text);
        } catch (JacksonException e) {
            throw new MalformedMessageException(Kind.NOT_JSON, "not JSON: " + firstLine(e.getOriginalMessage()), null);
        }
        return decode(tree);
    }

    /**
     * Decodes UTF-8 bytes as {@link #decode(String)} decodes their text, without the String: the
     * stdio transport's lines come as bytes. Bytes the parser refuses go the String's way, so
     * malformed UTF-8 is read (as U+FFFD) and reported exactly as before.
     */
    public JsonRpcMessage decode(byte[] utf8, int offset, int length) {
        if (length > maxChars) {
            return decode(new String(utf8, offset, length, StandardCharsets.UTF_8));
        }
        JsonNode tree;
        try {
            tree = Json.parse(utf8, offset, length);
        } catch (JacksonException e) {
            return decode(new String(utf8, offset, length, StandardCharsets.UTF_8));
        }
        return decode(tree);
    }

    public JsonRpcMessage decode(JsonNode tree) {
        if (tree == null || tree.isMissingNode()) {
            throw new MalformedMessageException(Kind.NOT_JSON, "empty message", null);
        }
        if (tree.isArray()) {
            throw new MalformedMessageException(Kind.BATCH, "JSON-RPC batches are not supported", null);
        }
        if (!(tree instanceof ObjectNode object)) {
            throw new MalformedMessageException(Kind.NOT_AN_OBJECT, "a JSON-RPC message must be an object", null);
        }
        JsonNode idNode = object.get("id");
        RequestId id = RequestId.fromJson(idNode);
        boolean hasId = idNode != null && !idNode.isNull();
        if (hasId && id == null) {
            throw new MalformedMessageException(Kind.BAD_ID, "id must be a string or an integer", null);
        }
        JsonNode version = object.get("jsonrpc");
        if (version == null || !version.isString() || !"2.0".equals(version.asString())) {
            throw new MalformedMessageException(Kind.WRONG_VERSION, "jsonrpc must be \"2.0\"", id);
        }
        JsonNode method = object.get("method");
        if (method != null) {
            if (!method.isString() || method.asString().isEmpty()) {
                throw new MalformedMessageException(Kind.MISSING_METHOD, "method must be a non-empty string", id);
            }
            JsonNode params = object.get("params");
            if (params != null && !params.isNull() && !(params instanceof ObjectNode)) {
                throw new MalformedMessageException(Kind.BAD_PARAMS, "params must be an object", id);
            }
            ObjectNode paramsObject = params instanceof ObjectNode p ? p : null;
            if (idNode == null) {
                return new Notification(method.asString(), paramsObject);
            }
            if (id == null) {
                throw new MalformedMessageException(Kind.BAD_ID, "a request id must not be null", null);
            }
            return new Request(id, method.asString(), paramsObject);
        }
        JsonNode error = object.get("error");
        if (error != null) {
            return new ErrorResponse(id, decodeError(error, id));
        }
        if (object.has("result")) {
            if (id == null) {
                throw new MalformedMessageException(Kind.BAD_ID, "a result must carry an id", null);
            }
            return new Result(id, object.get("result"));
        }
        throw new MalformedMessageException(Kind.MISSING_METHOD,
                "neither a request (method), nor a response (result or error)", id);
    }

    private static JsonRpcError decodeError(JsonNode error, RequestId id) {
        if (!(error instanceof ObjectNode object)) {
            throw new MalformedMessageException(Kind.NOT_A_MESSAGE, "error must be an object", id);
        }
        JsonNode code = object.get("code");
        if (code == null || !code.isIntegralNumber() || !code.canConvertToInt()) {
            throw new MalformedMessageException(Kind.NOT_A_MESSAGE, "error.code must be an integer", id);
        }
        String message = Json.text(object, "message");
        return new JsonRpcError(code.asInt(), message == null ? "" : message, object.get("data"));
    }

    public ObjectNode toTree(JsonRpcMessage message) {
        ObjectNode out = Json.object();
        out.put("jsonrpc", "2.0");
        switch (message) {
            case Request r -> {
                out.set("id", r.id().toJson());
                out.put("method", r.method());
                if (r.params() != null) {
                    out.set("params", r.params());
                }
            }
            case Notification n -> {
                out.put("method", n.method());
                if (n.params() != null) {
                    out.set("params", n.params());
                }
            }
            case Result r -> {
                out.set("id", r.id().toJson());
                out.set("result", r.result());
            }
            case ErrorResponse e -> {
                out.set("id", e.id() == null ? null : e.id().toJson());
                if (e.id() == null) {
                    out.putNull("id");
                }
                ObjectNode error = out.putObject("error");
                error.put("code", e.error().code());
                error.put("message", e.error().message());
                if (e.error().data() != null) {
                    error.set("data", e.error().data());
                }
            }
        }
        return out;
    }

    public String encode(JsonRpcMessage message) {
        return Json.write(toTree(message));
    }

    /** The UTF-8 of {@link #encode}, without a String in between. */
    public byte[] encodeBytes(JsonRpcMessage message) {
        return Json.writeBytes(toTree(message));
    }

    /** {@link #encodeBytes} and a newline: one stdio line, ready for a single write. */
    public byte[] encodeLine(JsonRpcMessage message) {
        byte[] json = encodeBytes(message);
        byte[] line = Arrays.copyOf(json, json.length + 1);
        line[json.length] = '\n';
        return line;
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
