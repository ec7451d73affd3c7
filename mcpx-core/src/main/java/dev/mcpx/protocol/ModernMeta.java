package dev.mcpx.protocol;

import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The per-request {@code _meta} of the modern era (2026-07-28): protocol version, client identity
 * and client capabilities, which replace the legacy handshake. {@code clientInfo} and
 * {@code clientCapabilities} stay JSON trees so fields mcpx does not know survive.
 */
public record ModernMeta(String protocolVersion, ObjectNode clientInfo, ObjectNode clientCapabilities) {

    public ModernMeta {
        if (protocolVersion == null || protocolVersion.isEmpty()) {
            throw new IllegalArgumentException("protocolVersion must not be empty");
        }
        clientCapabilities = clientCapabilities == null ? Json.object() : clientCapabilities;
    }

    public static ModernMeta of(ProtocolVersion version, String clientName, String clientVersion, ObjectNode capabilities) {
        ObjectNode info = Json.object();
        info.put("name", clientName);
        info.put("version", clientVersion);
        return new ModernMeta(version.wire(), info, capabilities);
    }

    public ModernMeta withProtocolVersion(String version) {
        return new ModernMeta(version, clientInfo, clientCapabilities);
    }

    /**
     * A copy of {@code params} (null: empty) whose {@code _meta} carries these fields; other
     * {@code _meta} keys, such as a progress token, are kept. The caller's tree is not changed.
     */
    public ObjectNode applyTo(ObjectNode params) {
        ObjectNode out = params == null ? Json.object() : params.deepCopy();
        ObjectNode meta = Json.objectAt(out, MetaKeys.META);
        if (meta == null) {
            meta = out.putObject(MetaKeys.META);
        }
        meta.put(MetaKeys.PROTOCOL_VERSION, protocolVersion);
        if (clientInfo != null) {
            meta.set(MetaKeys.CLIENT_INFO, clientInfo.deepCopy());
        }
        meta.set(MetaKeys.CLIENT_CAPABILITIES, clientCapabilities.deepCopy());
        return out;
    }

    /** The request's modern fields, when it carries at least the required ones. */
    public static Optional<ModernMeta> read(ObjectNode params) {
        ObjectNode meta = Json.objectAt(params, MetaKeys.META);
        String version = Json.text(meta, MetaKeys.PROTOCOL_VERSION);
        ObjectNode capabilities = Json.objectAt(meta, MetaKeys.CLIENT_CAPABILITIES);
        if (version == null || version.isEmpty() || capabilities == null) {
            return Optional.empty();
        }
        return Optional.of(new ModernMeta(version, Json.objectAt(meta, MetaKeys.CLIENT_INFO), capabilities));
    }

    /** The protocol version in a message's {@code _meta}, if it has one. */
    public static Optional<String> protocolVersionOf(JsonRpcMessage message) {
        ObjectNode params = switch (message) {
            case JsonRpcMessage.Request r -> r.params();
            case JsonRpcMessage.Notification n -> n.params();
            default -> null;
        };
        String version = Json.text(Json.objectAt(params, MetaKeys.META), MetaKeys.PROTOCOL_VERSION);
        return version == null || version.isEmpty() ? Optional.empty() : Optional.of(version);
    }

    /** The server's self-description in a result's {@code _meta}, if present. */
    public static Optional<JsonNode> serverInfoOf(JsonNode result) {
        return Optional.ofNullable(Json.objectAt(Json.objectAt(result, MetaKeys.META), MetaKeys.SERVER_INFO));
    }
}
