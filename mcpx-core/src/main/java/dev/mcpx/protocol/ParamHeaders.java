package dev.mcpx.protocol;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The {@code x-mcp-header} annotations of one tool's {@code inputSchema} (2026-07-28): which
 * call arguments a Streamable HTTP client mirrors into {@code Mcp-Param-{Name}} headers.
 * {@link #of} enforces the spec's rules; a tool that breaks them must be left out of the tool
 * list, so the failure is an exception that names the reason.
 */
public record ParamHeaders(List<Param> params) {

    public static final String HEADER_PREFIX = "Mcp-Param-";
    static final String ANNOTATION = "x-mcp-header";

    public static final ParamHeaders NONE = new ParamHeaders(List.of());
    private static final BigDecimal MAX_SAFE_INTEGER = BigDecimal.valueOf((1L << 53) - 1);

    /** Keywords whose value is one subschema or an array of them (never statically reachable). */
    private static final Set<String> SUBSCHEMA_KEYWORDS = Set.of("items", "additionalItems", "prefixItems",
            "contains", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "propertyNames",
            "not", "if", "then", "else", "allOf", "anyOf", "oneOf", "contentSchema");
    /** Keywords whose value maps names to subschemas (never statically reachable). */
    private static final Set<String> SUBSCHEMA_MAP_KEYWORDS = Set.of("patternProperties", "$defs", "definitions",
            "dependentSchemas", "dependencies");
    private static final Set<String> PRIMITIVE_TYPES = Set.of("string", "integer", "boolean");

    public ParamHeaders {
        params = List.copyOf(params);
    }

    /**
     * One annotated parameter: {@code name} is the header name after {@code Mcp-Param-},
     * {@code path} the chain of {@code properties} keys that leads to it from the schema root.
     */
    public record Param(String name, List<String> path) {
        public Param {
            path = List.copyOf(path);
        }

        public String headerName() {
            return HEADER_PREFIX + name;
        }
    }

    /**
     * Reads and checks the annotations of {@code inputSchema} (null or no annotations: none).
     *
     * @throws InvalidParamHeaderException when any annotation breaks the spec's rules
     */
    public static ParamHeaders of(JsonNode inputSchema) {
        List<Param> found = new ArrayList<>();
        visit(inputSchema, new ArrayList<>(), true, found);
        Map<String, Param> seen = new HashMap<>();
        for (Param param : found) {
            Param earlier = seen.putIfAbsent(param.name().toLowerCase(Locale.ROOT), param);
            if (earlier != null) {
                throw new InvalidParamHeaderException("x-mcp-header \"" + param.name() + "\" on " + dotted(param.path())
                        + " repeats \"" + earlier.name() + "\" on " + dotted(earlier.path()) + " (names are case-insensitive)");
            }
        }
        return found.isEmpty() ? NONE : new ParamHeaders(found);
    }

    /**
     * The headers to send for a call with {@code arguments}, names to encoded values, in
     * schema order. A parameter whose value is absent or null gets no header.
     */
    public Map<String, String> headersFor(JsonNode arguments) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Param param : params) {
            JsonNode value = valueOf(param, arguments);
            if (value != null) {
                headers.put(param.headerName(), HeaderValues.encode(asHeaderText(value)));
            }
        }
        return headers;
    }

    /**
     * Refuses a call whose mirrored numbers lie outside +-(2^53-1), the spec's limit: a server
     * compares them as numbers and could not tell such a value from its neighbour.
     *
     * @throws UnsafeIntegerException naming the parameter
     */
    public void requireSafeIntegers(JsonNode arguments) {
        for (Param param : params) {
            JsonNode value = valueOf(param, arguments);
            if (value != null && value.isNumber() && value.decimalValue().abs().compareTo(MAX_SAFE_INTEGER) > 0) {
                throw new UnsafeIntegerException(param.name() + " is " + value.decimalValue().toPlainString()
                        + ", outside the safe integer range of x-mcp-header values (+-(2^53-1))");
            }
        }
    }

    /** The value at the parameter's path, or null when absent or JSON null. */
    private static JsonNode valueOf(Param param, JsonNode arguments) {
        JsonNode value = arguments;
        for (String step : param.path()) {
            value = value == null || !value.isObject() ? null : value.get(step);
        }
        return value == null || value.isNull() || value.isMissingNode() ? null : value;
    }

    public boolean isEmpty() {
        return params.isEmpty();
    }

    /**
     * The spec's type conversion (string as is, integer in decimal, boolean in lowercase),
     * applied to the value as it is in the body so the header always agrees with it, even
     * when the value does not fit the declared type (the server then rejects the arguments).
     */
    static String asHeaderText(JsonNode value) {
        if (value.isString()) {
            return value.asString();
        }
        if (value.isBoolean()) {
            return value.asBoolean() ? "true" : "false";
        }
        if (value.isIntegralNumber()) {
            return value.bigIntegerValue().toString();
        }
        if (value.isNumber()) {
            BigDecimal decimal = value.decimalValue().stripTrailingZeros();
            return decimal.scale() <= 0 ? decimal.toBigIntegerExact().toString() : decimal.toPlainString();
        }
        return Json.write(value);
    }

    /** Walks the schema as a schema: property names are names, not keywords, and data is skipped. */
    private static void visit(JsonNode schema, List<String> path, boolean reachable, List<Param> found) {
        if (schema == null || !schema.isObject()) {
            return;
        }
        JsonNode annotation = schema.get(ANNOTATION);
        if (annotation != null) {
            found.add(check(annotation, schema, path, reachable));
        }
        for (Map.Entry<String, JsonNode> keyword : schema.properties()) {
            String key = keyword.getKey();
            JsonNode value = keyword.getValue();
            if (key.equals("properties") && value.isObject()) {
                for (Map.Entry<String, JsonNode> property : value.properties()) {
                    path.add(property.getKey());
                    visit(property.getValue(), path, reachable, found);
                    path.removeLast();
                }
            } else if (SUBSCHEMA_MAP_KEYWORDS.contains(key) && value.isObject()) {
                for (JsonNode subschema : value) {
                    visit(subschema, path, false, found);
                }
            } else if (SUBSCHEMA_KEYWORDS.contains(key)) {
                if (value.isArray()) {
                    for (JsonNode subschema : value) {
                        visit(subschema, path, false, found);
                    }
                } else {
                    visit(value, path, false, found);
                }
            }
        }
    }

    private static Param check(JsonNode annotation, JsonNode schema, List<String> path, boolean reachable) {
        String where = path.isEmpty() ? "the schema root" : dotted(path);
        if (!annotation.isString()) {
            throw new InvalidParamHeaderException("x-mcp-header on " + where + " is not a string");
        }
        String name = annotation.asString();
        if (name.isEmpty()) {
            throw new InvalidParamHeaderException("x-mcp-header on " + where + " is empty");
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTokenChar(name.charAt(i))) {
                throw new InvalidParamHeaderException("x-mcp-header \"" + printable(name) + "\" on " + where
                        + " is not an HTTP field-name token");
            }
        }
        if (!reachable || path.isEmpty()) {
            throw new InvalidParamHeaderException("x-mcp-header \"" + name + "\" on " + where
                    + " is not reachable from the root through properties alone");
        }
        if (!isPrimitive(schema.get("type"))) {
            throw new InvalidParamHeaderException("x-mcp-header \"" + name + "\" on " + where
                    + " is not on a string, integer or boolean parameter");
        }
        return new Param(name, path);
    }

    /** One of string, integer, boolean; a type list may add only "null" to one of them. */
    private static boolean isPrimitive(JsonNode type) {
        if (type == null) {
            return false;
        }
        if (type.isString()) {
            return PRIMITIVE_TYPES.contains(type.asString());
        }
        if (!type.isArray()) {
            return false;
        }
        int primitives = 0;
        for (JsonNode member : type) {
            if (!member.isString()) {
                return false;
            }
            if (PRIMITIVE_TYPES.contains(member.asString())) {
                primitives++;
            } else if (!member.asString().equals("null")) {
                return false;
            }
        }
        return primitives == 1;
    }

    /** RFC 9110 tchar. */
    private static boolean isTokenChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            out.append(c < 0x20 || c > 0x7E ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return out.toString();
    }

    private static String dotted(List<String> path) {
        return String.join(".", path);
    }

    /** A call's argument for a mirrored parameter cannot be mirrored faithfully; the call must not leave. */
    public static final class UnsafeIntegerException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        public UnsafeIntegerException(String message) {
            super(message);
        }
    }

    /** A tool's {@code x-mcp-header} annotations break the spec's rules; the tool must not be offered. */
    public static final class InvalidParamHeaderException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        public InvalidParamHeaderException(String message) {
            super(message);
        }
    }
}
