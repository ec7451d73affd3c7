package dev.mcpx.config;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.NameFilter;
import dev.mcpx.client.Reissue;
import dev.mcpx.protocol.Era;
import dev.mcpx.transport.UpstreamEndpoint;
import dev.mcpx.transport.UpstreamEndpoint.HttpKind;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Turns one {@code mcpServers} entry into an {@link UpstreamConfig}, or says what is wrong with it. */
final class EntryParser {

    private static final List<String> STDIO_ONLY = List.of("args", "env", "cwd", "inheritEnv");

    private final Path file;
    private final Path base;
    private final VariableExpander expander;
    private final Limits limits;

    /** {@code base} is the directory a relative {@code cwd} is resolved against. */
    EntryParser(Path file, Path base, VariableExpander expander, Limits limits) {
        this.file = file;
        this.base = base;
        this.expander = expander;
        this.limits = limits;
    }

    UpstreamConfig parse(String name, JsonNode node) {
        Fields fields = new Fields(file, name, "");
        if (name.isBlank()) {
            throw new ConfigException(file, "\"\"", "a server needs a non-empty name");
        }
        if (!(node instanceof ObjectNode entry)) {
            throw fields.problem("must be an object with \"command\" or \"url\", not " + Fields.kind(node));
        }
        try {
            UpstreamEndpoint endpoint = endpoint(entry, fields);
            String prefix = prefix(name, entry, fields);
            Long request = fields.millis(entry, "requestTimeoutMs");
            Long alias = fields.millis(entry, "timeoutMs");
            if (request != null && alias != null && !request.equals(alias)) {
                throw fields.problem("\"timeoutMs\" and \"requestTimeoutMs\" say different things; give one");
            }
            Long start = fields.millis(entry, "startTimeoutMs");
            return new UpstreamConfig(name, endpoint, prefix, reissue(entry, fields),
                    request != null ? Duration.ofMillis(request)
                            : alias != null ? Duration.ofMillis(alias) : limits.requestTimeout(),
                    start != null ? Duration.ofMillis(start) : UpstreamConfig.DEFAULT_START_TIMEOUT,
                    enabled(entry, fields), limits.messages(), filter(name, entry, fields), era(entry, endpoint, fields),
                    OAuthParser.parse(entry, endpoint, fields, expander, base));
        } catch (VariableExpander.UndefinedVariable e) {
            throw fields.problem(e.getMessage());
        }
    }

    private UpstreamEndpoint endpoint(ObjectNode entry, Fields fields) {
        String type = fields.string(entry, "type");
        String command = fields.string(entry, "command");
        String url = fields.string(entry, "url");
        if (command != null && url != null) {
            throw fields.problem("has both \"command\" and \"url\"; a server is either a process (command) or a URL");
        }
        if (command == null && url == null) {
            throw fields.problem("needs \"command\" (a process to run) or \"url\" (an HTTP server)");
        }
        HttpKind kind = kind(type, command != null, fields);
        if (command != null) {
            return stdio(entry, fields, command);
        }
        for (String stdioOnly : STDIO_ONLY) {
            if (entry.has(stdioOnly)) {
                throw fields.problem("\"" + stdioOnly + "\" only applies to a \"command\" server, not a \"url\" one");
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        fields.stringMap(entry, "headers").forEach((k, v) -> headers.put(k, expander.expand(v, "headers." + k)));
        return new UpstreamEndpoint.Http(uri(expander.expand(url, "url"), fields), headers, kind);
    }

    /** The era {@code "era"} pins, or null: detected. */
    private static Era era(ObjectNode entry, UpstreamEndpoint endpoint, Fields fields) {
        String era = fields.string(entry, "era");
        if (era == null) {
            return null;
        }
        Era pinned = switch (era.toLowerCase(Locale.ROOT)) {
            case "legacy" -> Era.LEGACY;
            case "modern" -> Era.MODERN;
            default -> throw fields.problem("has unknown \"era\" \"" + era + "\" (known: legacy, modern)");
        };
        if (pinned == Era.MODERN && endpoint instanceof UpstreamEndpoint.Http http && http.kind() == HttpKind.SSE) {
            throw fields.problem("has \"type\": \"sse\", the 2024-11-05 transport, which is legacy; it cannot be \"era\": \"modern\"");
        }
        return pinned;
    }

    /** The HTTP kind a {@code type} asks for; null for stdio. */
    private static HttpKind kind(String type, boolean hasCommand, Fields fields) {
        if (type == null) {
            return hasCommand ? null : HttpKind.AUTO;
        }
        String wanted = type.toLowerCase(Locale.ROOT);
        HttpKind kind = switch (wanted) {
            case "stdio" -> null;
            case "http", "streamable-http", "streamablehttp" -> HttpKind.STREAMABLE;
            case "sse" -> HttpKind.SSE;
            default -> throw fields.problem("has unknown \"type\" \"" + type + "\" (known: stdio, http, streamable-http, sse)");
        };
        if (kind == null && !hasCommand) {
            throw fields.problem("has \"type\": \"stdio\" but no \"command\"");
        }
        if (kind != null && hasCommand) {
            throw fields.problem("has \"type\": \"" + type + "\" but a \"command\"; an HTTP server needs \"url\"");
        }
        return kind;
    }

    private UpstreamEndpoint.Stdio stdio(ObjectNode entry, Fields fields, String command) {
        if (entry.has("headers")) {
            throw fields.problem("\"headers\" only applies to a \"url\" server, not a \"command\" one");
        }
        String program = expander.expand(command, "command");
        if (program.isBlank()) {
            throw fields.problem("\"command\" must not be empty");
        }
        List<String> args = fields.strings(entry, "args").stream().map(a -> expander.expand(a, "args")).toList();
        Map<String, String> env = new LinkedHashMap<>();
        fields.stringMap(entry, "env").forEach((k, v) -> env.put(k, expander.expand(v, "env." + k)));
        String cwdText = fields.string(entry, "cwd");
        Path cwd = null;
        if (cwdText != null) {
            cwd = base.resolve(expander.expand(cwdText, "cwd")).normalize();
            if (!Files.isDirectory(cwd)) {
                throw fields.problem("\"cwd\" " + cwd + " is not a directory");
            }
        }
        Boolean inherit = fields.bool(entry, "inheritEnv");
        return new UpstreamEndpoint.Stdio(program, args, env, cwd, inherit != null && inherit);
    }

    private static URI uri(String url, Fields fields) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw fields.problem("\"url\" is not a valid URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw fields.problem("\"url\" must start with http:// or https://, not \"" + url + "\"");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw fields.problem("\"url\" has no host: \"" + url + "\"");
        }
        return uri;
    }

    private static String prefix(String name, ObjectNode entry, Fields fields) {
        String prefix = fields.string(entry, "prefix");
        if (prefix == null) {
            return Prefixes.defaultFor(name);
        }
        String problem = Prefixes.problem(prefix);
        if (problem != null) {
            throw fields.problem(problem);
        }
        return prefix;
    }

    private static Map<String, Reissue> reissue(ObjectNode entry, Fields fields) {
        Map<String, Reissue> out = new LinkedHashMap<>();
        fields.stringMap(entry, "reissue").forEach((tool, policy) -> out.put(tool, switch (policy) {
            case "always" -> Reissue.ALWAYS;
            case "never" -> Reissue.NEVER;
            default -> throw fields.problem("\"reissue." + tool + "\" must be \"always\" or \"never\", not \"" + policy + "\"");
        }));
        return out;
    }

    /** {@code enabled}, or Cline's {@code disabled}; both given must agree. */
    private static boolean enabled(ObjectNode entry, Fields fields) {
        Boolean enabled = fields.bool(entry, "enabled");
        Boolean disabled = fields.bool(entry, "disabled");
        if (enabled != null && disabled != null && enabled.equals(disabled)) {
            throw fields.problem("\"enabled\" and \"disabled\" contradict each other; give one");
        }
        return enabled != null ? enabled : disabled == null || !disabled;
    }

    /**
     * {@code tools}, {@code prompts} and {@code resources}, each {@code {"allow": [...], "deny": [...]}}
     * of globs, and {@code disabledTools} (Cline's and Roo's key: names never to offer) as more denials.
     */
    private CatalogueFilter filter(String name, ObjectNode entry, Fields fields) {
        NameFilter tools = nameFilter(name, entry, "tools", fields);
        List<String> disabled = fields.strings(entry, "disabledTools");
        if (!disabled.isEmpty()) {
            List<String> deny = new java.util.ArrayList<>(tools.deny());
            deny.addAll(disabled);
            tools = new NameFilter(tools.allow(), deny);
        }
        return new CatalogueFilter(tools, nameFilter(name, entry, "prompts", fields),
                nameFilter(name, entry, "resources", fields));
    }

    private NameFilter nameFilter(String name, ObjectNode entry, String key, Fields fields) {
        JsonNode value = entry.get(key);
        if (value == null || value.isNull()) {
            return NameFilter.ALL;
        }
        if (!(value instanceof ObjectNode object)) {
            throw fields.problem("\"" + key + "\" must be an object with \"allow\" and/or \"deny\" lists of names"
                    + " (globs: * and ?), e.g. {\"allow\": [\"read_*\"]}, not " + Fields.kind(value));
        }
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            if (!field.getKey().equals("allow") && !field.getKey().equals("deny")) {
                throw fields.problem("\"" + key + "." + field.getKey() + "\" is not a filter key (known: allow, deny)");
            }
        }
        Fields nested = new Fields(file, name, key + ".");
        return new NameFilter(nested.strings(object, "allow"), nested.strings(object, "deny"));
    }
}
