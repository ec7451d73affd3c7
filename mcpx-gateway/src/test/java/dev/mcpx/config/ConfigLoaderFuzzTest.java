package dev.mcpx.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzing the config loader: any text gives a config or a {@link ConfigException} that names
 * the file, nothing else. Tries come from {@code jqwik.tries.default}.
 */
class ConfigLoaderFuzzTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path FILE = Path.of("/tmp/mcpx-fuzz/mcpx.json");
    private static final List<String> KEYS = List.of("command", "args", "env", "url", "headers", "type", "cwd",
            "inheritEnv", "prefix", "reissue", "requestTimeoutMs", "timeoutMs", "startTimeoutMs", "enabled", "disabled",
            "unknownKey");

    private final ConfigLoader loader = new ConfigLoader(Map.of("HOME", "/home/fuzz", "TOKEN", "t0k", "EMPTY", ""));

    @Property
    void anyTextLoadsOrFailsTyped(@ForAll String text) {
        loadOrTypedFailure(text);
    }

    @Property
    void anyConfigShapedJsonLoadsOrFailsTyped(@ForAll("configShaped") JsonNode config) {
        loadOrTypedFailure(JSON.writeValueAsString(config));
    }

    private void loadOrTypedFailure(String text) {
        try {
            GatewayConfig config = loader.parse(text, FILE);
            assertThat(config.upstreams()).allSatisfy(upstream -> assertThat(upstream.name()).isNotEmpty());
        } catch (ConfigException e) {
            assertThat(e.file()).isEqualTo(FILE);
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<JsonNode> configShaped() {
        Arbitrary<JsonNode> entry = Combinators.combine(Arbitraries.of(KEYS).list().ofMaxSize(6),
                values().list().ofSize(6)).as((keys, vals) -> {
                    ObjectNode object = NODES.objectNode();
                    for (int i = 0; i < keys.size(); i++) {
                        object.set(keys.get(i), vals.get(i));
                    }
                    return object;
                });
        Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of("a", "b", "srv", "", "x__y", "a b"),
                Arbitraries.strings().ofMaxLength(6));
        Arbitrary<JsonNode> servers = Combinators.combine(names.list().ofMaxSize(3), entry.list().ofSize(3))
                .as((keys, entries) -> {
                    ObjectNode object = NODES.objectNode();
                    for (int i = 0; i < keys.size(); i++) {
                        object.set(keys.get(i), entries.get(i));
                    }
                    return object;
                });
        Arbitrary<JsonNode> limits = Combinators.combine(Arbitraries.of("maxMessageBytes", "maxSseEventBytes",
                "maxHeaderBytes", "maxConcurrentCallsPerHost", "requestTimeoutMs", "other").list().ofMaxSize(3),
                values().list().ofSize(3)).as((keys, vals) -> {
                    ObjectNode object = NODES.objectNode();
                    for (int i = 0; i < keys.size(); i++) {
                        object.set(keys.get(i), vals.get(i));
                    }
                    return object;
                });
        Arbitrary<JsonNode> options = Combinators.combine(Arbitraries.of("token", "http", "limits", "other").list().ofMaxSize(3),
                values().list().ofSize(3), limits, Arbitraries.of(true, false)).as((keys, vals, limit, shaped) -> {
                    ObjectNode object = NODES.objectNode();
                    for (int i = 0; i < keys.size(); i++) {
                        object.set(keys.get(i), keys.get(i).equals("limits") && shaped ? limit : vals.get(i));
                    }
                    return object;
                });
        return Combinators.combine(servers, options, Arbitraries.of("mcpServers", "servers", "other"),
                Arbitraries.of(true, false)).as((s, o, key, withOptions) -> {
                    ObjectNode root = NODES.objectNode();
                    root.set(key, s);
                    if (withOptions) {
                        root.set("mcpx", o);
                    }
                    return root;
                });
    }

    private static Arbitrary<JsonNode> values() {
        Arbitrary<String> text = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(12),
                Arbitraries.of("stdio", "http", "sse", "streamable-http", "always", "never", "node", "${HOME}",
                        "${MISSING}", "${TOKEN", "$${HOME}", "${EMPTY:-x}", "http://127.0.0.1:1/mcp", "https://",
                        "http://[::1", "file:///etc", "127.0.0.1:8080", ":0", "host:99999", "..", "a\u0000b", "/"));
        Arbitrary<JsonNode> scalars = Arbitraries.oneOf(
                text.map(NODES::stringNode),
                Arbitraries.longs().map(NODES::numberNode),
                Arbitraries.doubles().map(NODES::numberNode),
                Arbitraries.of(true, false).map(NODES::booleanNode),
                Arbitraries.just(NODES.nullNode()));
        Arbitrary<JsonNode> arrays = scalars.list().ofMaxSize(3).map(list -> {
            var array = NODES.arrayNode();
            list.forEach(array::add);
            return array;
        });
        Arbitrary<JsonNode> maps = Combinators.combine(text.list().ofMaxSize(3), scalars.list().ofSize(3))
                .as((keys, vals) -> {
                    ObjectNode object = NODES.objectNode();
                    for (int i = 0; i < keys.size(); i++) {
                        object.set(keys.get(i), vals.get(i));
                    }
                    return object;
                });
        return Arbitraries.oneOf(scalars, arrays, maps);
    }
}
