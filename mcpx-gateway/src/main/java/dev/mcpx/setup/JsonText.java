package dev.mcpx.setup;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Edits one top-level key of a JSON (or JSONC) file as text: the new value replaces the old
 * one's characters and everything else, comments and formatting included, stays as it was.
 */
final class JsonText {

    /** JSONC as VS Code writes it: comments and trailing commas (Jackson's parser features). */
    private static final JsonMapper LENIENT = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA)
            .build();

    private record Span(int start, int end) {
    }

    private JsonText() {
    }

    /** The document's top-level object; a {@link JacksonException} when it is not JSON(C). */
    static ObjectNode root(String text) {
        JsonNode root = LENIENT.readTree(text);
        if (!(root instanceof ObjectNode object)) {
            throw new IllegalArgumentException("is not a JSON object");
        }
        return object;
    }

    /** {@code text} with the top-level {@code key} set to {@code value}, added first when absent. */
    static String withTopLevel(String text, String key, JsonNode value) {
        return withTopLevel(text, key, value, Map.of());
    }

    /**
     * As above; a member of {@code value} named in {@code verbatim} is written as that text (its
     * original characters, comments and layout included) instead of being rendered anew.
     */
    static String withTopLevel(String text, String key, JsonNode value, Map<String, String> verbatim) {
        String unit = indentUnit(text);
        // A file with Windows line ends keeps them in what is written into it.
        String newline = text.contains("\r\n") ? "\r\n" : "\n";
        Optional<Span> existing = valueSpan(text, key);
        if (existing.isPresent()) {
            Span span = existing.get();
            String base = lineIndent(text, span.start());
            return text.substring(0, span.start()) + lines(render(value, unit, base, verbatim), newline)
                    + text.substring(span.end());
        }
        Span root = rootSpan(text);
        String member = quote(key) + ": " + render(value, unit, unit);
        boolean empty = text.substring(root.start() + 1, root.end() - 1).isBlank();
        if (empty) {
            return text.substring(0, root.start()) + lines("{\n" + unit + member + "\n}", newline) + text.substring(root.end());
        }
        return text.substring(0, root.start() + 1) + lines("\n" + unit + member + ",", newline) + text.substring(root.start() + 1);
    }

    private static String lines(String rendered, String newline) {
        return rendered.replace("\r\n", "\n").replace("\n", newline);
    }

    /** A new file holding one key, formatted as the hosts write theirs. */
    static String document(String key, JsonNode value) {
        return "{\n  " + quote(key) + ": " + render(value, "  ", "  ") + "\n}\n";
    }

    private static Optional<Span> valueSpan(String text, String key) {
        return Optional.ofNullable(memberSpans(text, null).get(key));
    }

    /** The original text of each member of the top-level object {@code key}, by member name. */
    static Map<String, String> memberTexts(String text, String key) {
        Map<String, String> texts = new LinkedHashMap<>();
        memberSpans(text, key).forEach((name, span) -> texts.put(name, text.substring(span.start(), span.end())));
        return texts;
    }

    /** The value spans of the root's members, or (with {@code inside}) of that member's members. */
    private static Map<String, Span> memberSpans(String text, String inside) {
        Map<String, Span> spans = new LinkedHashMap<>();
        try (JsonParser parser = LENIENT.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return spans;
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
                String name = parser.currentName();
                if (parser.nextToken() == JsonToken.START_OBJECT && name.equals(inside)) {
                    spans.clear();
                    for (JsonToken member = parser.nextToken(); member == JsonToken.PROPERTY_NAME; member = parser.nextToken()) {
                        String memberName = parser.currentName();
                        parser.nextToken();
                        spans.put(memberName, span(parser, text));
                    }
                    return spans;
                }
                spans.put(name, span(parser, text));
            }
            return inside == null ? spans : Map.of();
        }
    }

    /** The span of the value the parser is on, leaving the parser at its last token. */
    private static Span span(JsonParser parser, String text) {
        int start = (int) parser.currentTokenLocation().getCharOffset();
        parser.skipChildren();
        return new Span(start, (int) parser.currentTokenLocation().getCharOffset() + tokenLength(parser, text));
    }

    private static Span rootSpan(String text) {
        try (JsonParser parser = LENIENT.createParser(text)) {
            parser.nextToken();
            int start = (int) parser.currentTokenLocation().getCharOffset();
            parser.skipChildren();
            return new Span(start, (int) parser.currentTokenLocation().getCharOffset() + 1);
        }
    }

    /** The length of the token the parser is on: 1 for a closing bracket, else the scalar's text. */
    private static int tokenLength(JsonParser parser, String text) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
            return 1;
        }
        int start = (int) parser.currentTokenLocation().getCharOffset();
        if (token == JsonToken.VALUE_STRING) {
            int i = start + 1;
            while (text.charAt(i) != '"') {
                i += text.charAt(i) == '\\' ? 2 : 1;
            }
            return i + 1 - start;
        }
        return parser.getString().length();
    }

    /** The indentation of the first indented line: what the file uses per level (two spaces if none). */
    static String indentUnit(String text) {
        for (String line : text.split("\n")) {
            int i = 0;
            while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
                i++;
            }
            if (i > 0 && i < line.length()) {
                return line.substring(0, i);
            }
        }
        return "  ";
    }

    private static String lineIndent(String text, int offset) {
        int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
        int i = lineStart;
        while (i < offset && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return text.substring(lineStart, i);
    }

    /** JSON as JSON.stringify(value, null, 2) lays it out, every line after the first at {@code base}. */
    static String render(JsonNode value, String unit, String base) {
        StringBuilder out = new StringBuilder();
        render(value, unit, base, out);
        return out.toString();
    }

    private static String render(JsonNode value, String unit, String base, Map<String, String> verbatim) {
        if (!(value instanceof ObjectNode object) || object.isEmpty()) {
            return render(value, unit, base);
        }
        StringBuilder out = new StringBuilder("{");
        String separator = "\n";
        for (Map.Entry<String, JsonNode> member : object.properties()) {
            out.append(separator).append(base).append(unit).append(quote(member.getKey())).append(": ");
            String original = verbatim.get(member.getKey());
            if (original != null) {
                out.append(original);
            } else {
                render(member.getValue(), unit, base + unit, out);
            }
            separator = ",\n";
        }
        return out.append("\n").append(base).append("}").toString();
    }

    private static void render(JsonNode value, String unit, String indent, StringBuilder out) {
        if (value instanceof ObjectNode object) {
            if (object.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append("{");
            String separator = "\n";
            for (Map.Entry<String, JsonNode> member : object.properties()) {
                out.append(separator).append(indent).append(unit).append(quote(member.getKey())).append(": ");
                render(member.getValue(), unit, indent + unit, out);
                separator = ",\n";
            }
            out.append("\n").append(indent).append("}");
        } else if (value.isArray()) {
            if (value.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append("[");
            String separator = "\n";
            for (JsonNode item : value) {
                out.append(separator).append(indent).append(unit);
                render(item, unit, indent + unit, out);
                separator = ",\n";
            }
            out.append("\n").append(indent).append("]");
        } else {
            out.append(LENIENT.writeValueAsString(value));
        }
    }

    private static String quote(String text) {
        return LENIENT.writeValueAsString(text);
    }
}
