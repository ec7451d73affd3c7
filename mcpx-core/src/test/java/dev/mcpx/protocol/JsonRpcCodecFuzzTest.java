package dev.mcpx.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fuzzing the JSON-RPC decoder: whatever text arrives, {@code decode} returns a message or
 * throws {@link MalformedMessageException}, nothing else. Tries come from
 * {@code jqwik.tries.default} (raise it with {@code -Djqwik.tries.default=100000} for a long run).
 */
class JsonRpcCodecFuzzTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final JsonRpcCodec codec = new JsonRpcCodec(64 * 1024);

    @Property
    void anyTextDecodesOrFailsTyped(@ForAll String text) {
        decodeOrTypedFailure(text);
    }

    @Property
    void anyMessageShapedObjectDecodesOrFailsTyped(@ForAll("messageShaped") JsonNode tree) {
        String text = Json.write(tree);
        JsonRpcMessage message = decodeOrTypedFailure(text);
        if (message != null) {
            assertThat(codec.decode(codec.encode(message))).isEqualTo(message);
        }
    }

    @Property
    void mangledValidMessagesDecodeOrFailTyped(@ForAll("mangled") String text) {
        decodeOrTypedFailure(text);
    }

    private JsonRpcMessage decodeOrTypedFailure(String text) {
        try {
            return codec.decode(text);
        } catch (MalformedMessageException e) {
            assertThat(e.kind()).isNotNull();
            assertThat(e.getMessage()).isNotBlank();
            return null;
        }
    }

    @Provide
    Arbitrary<JsonNode> messageShaped() {
        Arbitrary<JsonNode> anyValue = values();
        Arbitrary<String> key = Arbitraries.of("jsonrpc", "id", "method", "params", "result", "error", "code",
                "message", "data", "_meta");
        return Combinators.combine(key.list().ofMaxSize(6), anyValue.list().ofSize(6), Arbitraries.of("2.0", "1.0", ""))
                .as((keys, vals, version) -> {
                    ObjectNode object = NODES.objectNode();
                    object.put("jsonrpc", version);
                    for (int i = 0; i < keys.size(); i++) {
                        object.set(keys.get(i), vals.get(i));
                    }
                    return object;
                });
    }

    private static Arbitrary<JsonNode> values() {
        Arbitrary<JsonNode> scalars = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(8).map(NODES::stringNode),
                Arbitraries.longs().map(NODES::numberNode),
                Arbitraries.doubles().map(NODES::numberNode),
                Arbitraries.bigIntegers().map(NODES::numberNode),
                Arbitraries.of(true, false).map(NODES::booleanNode),
                Arbitraries.just(NODES.nullNode()));
        Arbitrary<JsonNode> errors = Combinators.combine(scalars, scalars).as((code, message) -> {
            ObjectNode error = NODES.objectNode();
            error.set("code", code);
            error.set("message", message);
            return error;
        });
        Arbitrary<JsonNode> arrays = scalars.list().ofMaxSize(3).map(list -> {
            var array = NODES.arrayNode();
            list.forEach(array::add);
            return array;
        });
        return Arbitraries.oneOf(scalars, errors, arrays, Arbitraries.just(NODES.objectNode()));
    }

    @Provide
    Arbitrary<String> mangled() {
        List<String> seeds = List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"content\":[]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32601,\"message\":\"nope\"}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}");
        return Combinators.combine(Arbitraries.of(seeds), Arbitraries.integers().between(0, 200),
                Arbitraries.integers().between(0, 200), Arbitraries.strings().ofMaxLength(6))
                .as((seed, at, length, insert) -> {
                    int start = Math.min(at, seed.length());
                    int end = Math.min(seed.length(), start + length % 8);
                    return seed.substring(0, start) + insert + seed.substring(end);
                });
    }
}
