package dev.mcpx.config;

import dev.mcpx.catalogue.CatalogueFilter;
import dev.mcpx.catalogue.NameFilter;
import dev.mcpx.catalogue.Profile;
import dev.mcpx.catalogue.Profiles;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx.profiles} (named subsets of servers and tools) and {@code mcpx.search} (search mode
 * for {@code /mcp} itself). A profile's filters match the names hosts see ({@code github__create_issue}).
 */
final class ProfilesParser {

    private static final Set<String> PROFILE_KEYS = Set.of("servers", "tools", "prompts", "resources", "search");
    private static final Set<String> SEARCH_KEYS = Set.of("enabled", "pin");
    /** A profile name is one segment of {@code /mcp/<profile>}. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final Path file;

    ProfilesParser(Path file) {
        this.file = file;
    }

    Profiles parse(ObjectNode options, List<UpstreamConfig> upstreams) {
        Profile whole = new Profile("", List.of(), CatalogueFilter.NONE, search(options.get("search"), "mcpx.search"));
        JsonNode node = options.get("profiles");
        if (node == null || node.isNull()) {
            return new Profiles(whole, Map.of());
        }
        if (!(node instanceof ObjectNode entries)) {
            throw problem("\"mcpx.profiles\" must be an object of named profiles, e.g. {\"review\": {\"servers\": "
                    + "[\"github\"]}}, not " + Fields.kind(node));
        }
        Map<String, Profile> named = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : entries.properties()) {
            named.put(entry.getKey(), profile(entry.getKey(), entry.getValue(), upstreams));
        }
        return new Profiles(whole, named);
    }

    private Profile profile(String name, JsonNode value, List<UpstreamConfig> upstreams) {
        String where = "mcpx.profiles." + name;
        if (!NAME.matcher(name).matches()) {
            throw problem("profile name \"" + name + "\" must be letters, digits, '.', '_' or '-' (it is a URL path: /mcp/"
                    + name + ")");
        }
        if (!(value instanceof ObjectNode profile)) {
            throw problem("\"" + where + "\" must be an object with \"servers\", \"tools\", \"prompts\", \"resources\" "
                    + "or \"search\", not " + Fields.kind(value));
        }
        for (String key : profile.propertyNames()) {
            if (!PROFILE_KEYS.contains(key)) {
                throw problem("\"" + where + "\" has unknown key \"" + key
                        + "\" (known: servers, tools, prompts, resources, search)");
            }
        }
        Fields fields = new Fields(file, null, where + ".");
        List<String> servers = fields.strings(profile, "servers");
        for (String server : servers) {
            if (upstreams.stream().noneMatch(upstream -> upstream.name().equals(server))) {
                throw problem("\"" + where + ".servers\" names \"" + server + "\", which is not in mcpServers (known: "
                        + String.join(", ", upstreams.stream().map(UpstreamConfig::name).toList()) + ")");
            }
        }
        CatalogueFilter filter = new CatalogueFilter(names(profile, "tools", where), names(profile, "prompts", where),
                names(profile, "resources", where));
        return new Profile(name, servers, filter, search(profile.get("search"), where + ".search"));
    }

    private NameFilter names(ObjectNode profile, String key, String where) {
        JsonNode value = profile.get(key);
        if (value == null || value.isNull()) {
            return NameFilter.ALL;
        }
        if (!(value instanceof ObjectNode object)) {
            throw problem("\"" + where + "." + key + "\" must be an object with \"allow\" and/or \"deny\" lists of "
                    + "names hosts see (globs: * and ?), e.g. {\"deny\": [\"fs__write_*\"]}, not " + Fields.kind(value));
        }
        for (String field : object.propertyNames()) {
            if (!field.equals("allow") && !field.equals("deny")) {
                throw problem("\"" + where + "." + key + "." + field + "\" is not a filter key (known: allow, deny)");
            }
        }
        Fields fields = new Fields(file, null, where + "." + key + ".");
        return new NameFilter(fields.strings(object, "allow"), fields.strings(object, "deny"));
    }

    /** {@code true}/{@code false}, or {@code {"enabled": true, "pin": ["github__create_issue"]}} (enabled when given). */
    private Profile.Search search(JsonNode value, String where) {
        if (value == null || value.isNull()) {
            return Profile.Search.OFF;
        }
        if (value.isBoolean()) {
            return new Profile.Search(value.asBoolean(), List.of());
        }
        if (!(value instanceof ObjectNode search)) {
            throw problem("\"" + where + "\" must be true, false or an object with \"pin\" (tools always listed), not "
                    + Fields.kind(value));
        }
        for (String key : search.propertyNames()) {
            if (!SEARCH_KEYS.contains(key)) {
                throw problem("\"" + where + "\" has unknown key \"" + key + "\" (known: enabled, pin)");
            }
        }
        Fields fields = new Fields(file, null, where + ".");
        Boolean enabled = fields.bool(search, "enabled");
        return new Profile.Search(enabled == null || enabled, fields.strings(search, "pin"));
    }

    private ConfigException problem(String text) {
        return new ConfigException(file, null, text);
    }
}
