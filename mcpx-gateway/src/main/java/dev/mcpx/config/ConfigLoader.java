package dev.mcpx.config;

import dev.mcpx.catalogue.Profiles;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads an {@code mcpServers} file (the format Claude Desktop, Claude Code and Cursor use;
 * VS Code's {@code servers} is accepted too) into a {@link GatewayConfig}. Every mistake is a
 * {@link ConfigException} naming the file, the entry and what is wrong.
 */
public final class ConfigLoader {

    private final Map<String, String> environment;

    public ConfigLoader(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    public static ConfigLoader fromEnvironment() {
        return new ConfigLoader(System.getenv());
    }

    public GatewayConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file, null, "no such file");
        } catch (IOException e) {
            throw new ConfigException(file, null, "cannot be read: " + e.getMessage());
        }
        return parse(text, file);
    }

    /** Parses config text; {@code file} is where it came from, for messages and relative paths. */
    public GatewayConfig parse(String text, Path file) {
        JsonNode root;
        try {
            root = ConfigTree.read(text);
        } catch (JacksonException e) {
            throw new ConfigException(file, null, "is not valid JSON" + position(e) + ": " + firstLine(e.getOriginalMessage()));
        }
        if (!(root instanceof ObjectNode top)) {
            throw new ConfigException(file, null, "must be a JSON object with an \"mcpServers\" object");
        }
        String key = top.has("mcpServers") || !top.has("servers") ? "mcpServers" : "servers";
        JsonNode servers = top.get(key);
        if (servers == null) {
            throw new ConfigException(file, null, "has no \"mcpServers\" object");
        }
        if (!(servers instanceof ObjectNode entries)) {
            throw new ConfigException(file, null, "\"" + key + "\" must be an object, not " + Fields.kind(servers));
        }
        GatewayOptions options = GatewayOptions.parse(file, top.get("mcpx"), new VariableExpander(environment));
        Path base = file.toAbsolutePath().getParent();
        EntryParser parser = new EntryParser(file, base, new VariableExpander(environment), options.limits());
        List<UpstreamConfig> upstreams = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : entries.properties()) {
            upstreams.add(parser.parse(entry.getKey(), entry.getValue()));
        }
        rejectSharedPrefixes(file, upstreams);
        Profiles profiles = top.get("mcpx") instanceof ObjectNode mcpx ? new ProfilesParser(file).parse(mcpx, upstreams)
                : Profiles.NONE;
        for (FrontToken token : options.tokens()) {
            if (token.profile() != null && !profiles.named().containsKey(token.profile())) {
                throw new ConfigException(file, null, "\"mcpx.tokens." + token.name() + ".profile\" names \""
                        + token.profile() + "\", which is not in mcpx.profiles (known: "
                        + String.join(", ", profiles.named().keySet()) + ")");
            }
        }
        return new GatewayConfig(Optional.of(file), upstreams, options.tokens(), options.http(), options.limits(), options.tls(),
                profiles, options.telemetry(), options.auth(), options.cluster());
    }

    /** Two upstreams under one non-empty prefix would put their tools in one namespace. */
    private static void rejectSharedPrefixes(Path file, List<UpstreamConfig> upstreams) {
        Map<String, String> owners = new LinkedHashMap<>();
        for (UpstreamConfig upstream : upstreams) {
            if (!upstream.enabled() || upstream.prefix().isEmpty()) {
                continue;
            }
            String owner = owners.putIfAbsent(upstream.prefix(), upstream.name());
            if (owner != null) {
                throw new ConfigException(file, upstream.name(), "has prefix \"" + upstream.prefix()
                        + "\", which \"" + owner + "\" already uses; give one of them another \"prefix\"");
            }
        }
    }

    private static String position(JacksonException e) {
        if (e.getLocation() == null || e.getLocation().getLineNr() < 1) {
            return "";
        }
        return " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    /** The optional top-level {@code "mcpx"} object. */
    record GatewayOptions(List<FrontToken> tokens, Optional<InetSocketAddress> http, Limits limits, Optional<TlsFiles> tls,
                          TelemetryOptions telemetry, Optional<FrontAuth> auth,
                          ClusterOptions cluster) {

        private static final java.util.Set<String> KNOWN = java.util.Set.of("token", "tokens", "tls", "http", "limits",
                "profiles", "search", "metrics", "audit", "logFormat", "auth", "telemetry", "cluster");

        static GatewayOptions parse(Path file, JsonNode node, VariableExpander expander) {
            if (node == null) {
                return new GatewayOptions(List.of(), Optional.empty(), Limits.DEFAULTS, Optional.empty(), TelemetryOptions.DEFAULTS,
                        Optional.empty(), ClusterOptions.NONE);
            }
            if (!(node instanceof ObjectNode options)) {
                throw new ConfigException(file, null, "\"mcpx\" must be an object, not " + Fields.kind(node));
            }
            Fields fields = new Fields(file, null, "mcpx.");
            for (String name : options.propertyNames()) {
                if (!KNOWN.contains(name)) {
                    throw new ConfigException(file, null, "\"mcpx\" has unknown option \"" + name + "\" (known: token, tokens, auth, tls, http, limits, profiles, search, metrics, audit, logFormat, telemetry, cluster)");
                }
            }
            FrontOptionsParser front = new FrontOptionsParser(file, expander);
            String http = fields.string(options, "http");
            Optional<InetSocketAddress> address = http == null ? Optional.empty()
                    : Optional.of(HostPort.parse(http).orElseThrow(() -> new ConfigException(file, null,
                            "mcpx.http must be HOST:PORT (e.g. 127.0.0.1:8080), not \"" + http + "\"")));
            return new GatewayOptions(front.tokens(options), address, LimitsParser.parse(file, options.get("limits")),
                    front.tls(options), TelemetryParser.parse(file, options, expander), front.auth(options),
                    ClusterParser.parse(file, options.get("cluster"), expander));
        }
    }
}
