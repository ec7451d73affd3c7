package dev.mcpx.testkit.conformance;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpFields;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * SEP-2243 server validation (2026-07-28): Mcp-Method, Mcp-Name and Mcp-Param-* must match the
 * body, after trimming whitespace and decoding the {@code =?base64?...?=} sentinel. A failure is
 * a HeaderMismatch (-32020).
 */
final class HeaderValidation {

    private static final Pattern SENTINEL = Pattern.compile("=\\?base64\\?(.*)\\?=");
    private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]*={0,2}");
    private static final Pattern HEADER_SAFE = Pattern.compile("[\\x20-\\x7E\\t]*");

    private record HeaderParameter(String header, List<String> path) {
    }

    private HeaderValidation() {
    }

    /** The mismatch, or null when the headers agree with the body. */
    static RpcError check(HttpFields headers, String method, ObjectNode params, ObjectNode toolInputSchema) {
        String methodHeader = headers.get("Mcp-Method");
        if (methodHeader == null) {
            return mismatch("Missing Mcp-Method header");
        }
        if (!methodHeader.trim().equals(method)) {
            return mismatch("Mcp-Method header '" + methodHeader.trim() + "' does not match body method '" + method + "'");
        }
        String nameField = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            case "tasks/get", "tasks/update", "tasks/cancel" -> "taskId";
            default -> null;
        };
        if (nameField != null) {
            RpcError nameMismatch = compare("Mcp-Name", headers.get("Mcp-Name"), params.get(nameField));
            if (nameMismatch != null) {
                return nameMismatch;
            }
        }
        if (toolInputSchema != null) {
            JsonNode arguments = params.path("arguments");
            for (HeaderParameter parameter : headerParameters(toolInputSchema)) {
                JsonNode value = arguments;
                for (String key : parameter.path()) {
                    value = value.path(key);
                }
                String header = "Mcp-Param-" + parameter.header();
                RpcError paramMismatch = compare(header, headers.get(header), value);
                if (paramMismatch != null) {
                    return paramMismatch;
                }
            }
        }
        return null;
    }

    private static RpcError compare(String header, String headerValue, JsonNode bodyValue) {
        boolean inBody = bodyValue != null && !bodyValue.isMissingNode() && !bodyValue.isNull();
        if (headerValue == null) {
            return inBody ? mismatch("Missing " + header + " header for a value present in the body") : null;
        }
        if (!inBody) {
            return mismatch(header + " header sent for a value absent from the body");
        }
        if (!HEADER_SAFE.matcher(headerValue).matches()) {
            return mismatch(header + " header contains invalid characters");
        }
        String decoded = decode(headerValue.trim());
        if (decoded == null) {
            return mismatch(header + " header is not valid Base64 inside its =?base64?...?= sentinel");
        }
        if (!matches(decoded, bodyValue)) {
            return mismatch(header + " header value '" + decoded + "' does not match the body value");
        }
        return null;
    }

    private static boolean matches(String headerValue, JsonNode bodyValue) {
        if (bodyValue.isString()) {
            return headerValue.equals(bodyValue.asString());
        }
        if (bodyValue.isBoolean()) {
            return headerValue.equals(bodyValue.asBoolean() ? "true" : "false");
        }
        if (bodyValue.isNumber()) {
            try {
                return new BigDecimal(headerValue).compareTo(bodyValue.decimalValue()) == 0;
            } catch (NumberFormatException notANumber) {
                return false;
            }
        }
        return false;
    }

    /** The header's value after sentinel decoding; null when the sentinel holds invalid Base64 or UTF-8. */
    static String decode(String value) {
        var sentinel = SENTINEL.matcher(value);
        if (!sentinel.matches()) {
            return value;
        }
        String encoded = sentinel.group(1);
        if (encoded.length() % 4 != 0 || !BASE64.matcher(encoded).matches()) {
            return null;
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException invalid) {
            return null;
        }
    }

    /** x-mcp-header annotations reachable from the schema root through properties keys only. */
    private static List<HeaderParameter> headerParameters(ObjectNode schema) {
        List<HeaderParameter> found = new ArrayList<>();
        collect(schema, new ArrayList<>(), found);
        return found;
    }

    private static void collect(JsonNode schema, List<String> path, List<HeaderParameter> found) {
        JsonNode properties = schema.get("properties");
        if (properties == null || !properties.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> property : properties.properties()) {
            List<String> propertyPath = new ArrayList<>(path);
            propertyPath.add(property.getKey());
            String header = Json.string(property.getValue(), "x-mcp-header");
            if (header != null) {
                found.add(new HeaderParameter(header, propertyPath));
            }
            collect(property.getValue(), propertyPath, found);
        }
    }

    private static RpcError mismatch(String message) {
        return RpcError.of(RpcError.HEADER_MISMATCH, "Header mismatch: " + message);
    }
}
