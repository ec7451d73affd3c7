package dev.mcpx.setup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/** Turns one host entry into the mcpx entry that does the same, or says why it stays in the host. */
final class EntryTranslation {

    sealed interface Outcome {
    }

    /** The entry as mcpx's config holds it (every key kept, host syntax translated). */
    record Moved(ObjectNode entry) implements Outcome {
    }

    /** The entry stays in the host's file; {@code reason} is what the user is told. */
    record Kept(String reason) implements Outcome {
    }

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*)}");
    private static final Pattern SHELL = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(:-.*)?");
    private static final Pattern EDITOR_ENV = Pattern.compile("env:([A-Za-z_][A-Za-z0-9_]*)");
    private static final Set<String> TYPES = Set.of("stdio", "http", "streamable-http", "streamablehttp", "sse");

    private final Host host;
    private final Os os;

    EntryTranslation(Host host, Os os) {
        this.host = host;
        this.os = os;
    }

    Outcome translate(JsonNode node) {
        if (!(node instanceof ObjectNode original)) {
            return new Kept("is not an object");
        }
        ObjectNode entry = renamed(original, "serverUrl", "url");
        if (entry.has("envFile")) {
            return new Kept("uses \"envFile\", which mcpx does not read");
        }
        JsonNode command = entry.get("command");
        if (command != null && command.isString() && runsMcpx(command.asString(), entry.get("args"))) {
            return new Kept("runs mcpx itself (moving it would make mcpx start itself)");
        }
        if (!entry.has("command") && !entry.has("url")) {
            return new Kept("has neither \"command\" nor \"url\"");
        }
        JsonNode type = entry.get("type");
        if (type != null && !(type.isString() && TYPES.contains(type.asString().toLowerCase(java.util.Locale.ROOT)))) {
            return new Kept("has \"type\" " + type + ", which mcpx does not know");
        }
        try {
            return new Moved((ObjectNode) translated(entry));
        } catch (Untranslatable e) {
            return new Kept(e.getMessage());
        }
    }

    private static boolean runsMcpx(String command, JsonNode args) {
        List<String> list = new ArrayList<>();
        if (args instanceof ArrayNode array) {
            array.forEach(arg -> list.add(arg.asString("")));
        }
        return McpxCommand.runsMcpx(command, list);
    }

    /** Windsurf's {@code serverUrl} is mcpx's {@code url}; the key keeps its place. */
    private static ObjectNode renamed(ObjectNode entry, String from, String to) {
        if (!entry.has(from) || entry.has(to)) {
            return entry.deepCopy();
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> member : entry.properties()) {
            out.set(member.getKey().equals(from) ? to : member.getKey(), member.getValue().deepCopy());
        }
        return out;
    }

    private JsonNode translated(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            object.properties().forEach(member -> out.set(member.getKey(), translated(member.getValue())));
            return out;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            array.forEach(item -> out.add(translated(item)));
            return out;
        }
        return node.isString() ? StringNode.valueOf(translated(node.asString())) : node.deepCopy();
    }

    /** A string's {@code ${...}} references in mcpx's syntax, or why they cannot be. */
    private String translated(String text) {
        Matcher reference = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (reference.find()) {
            String inside = reference.group(1);
            String replacement = switch (host.variables()) {
                case SHELL -> SHELL.matcher(inside).matches() ? reference.group() : null;
                case EDITOR -> editor(inside);
                case NONE -> null;
            };
            if (replacement == null) {
                throw new Untranslatable(host.variables() == Host.Variables.NONE
                        ? "has \"" + reference.group() + "\", which " + host.title() + " passes as it is and mcpx would expand"
                        : "uses \"" + reference.group() + "\", which only " + host.title() + " can resolve");
            }
            reference.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        reference.appendTail(out);
        return out.toString();
    }

    private String editor(String inside) {
        Matcher env = EDITOR_ENV.matcher(inside);
        if (env.matches()) {
            return "${" + env.group(1) + "}";
        }
        return switch (inside) {
            case "userHome" -> os == Os.WINDOWS ? "${USERPROFILE}" : "${HOME}";
            case "pathSeparator", "/" -> os == Os.WINDOWS ? "\\" : "/";
            default -> null;
        };
    }

    private static final class Untranslatable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Untranslatable(String message) {
            super(message, null, false, false);
        }
    }
}
