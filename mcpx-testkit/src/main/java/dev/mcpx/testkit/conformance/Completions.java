package dev.mcpx.testkit.conformance;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** completion/complete: prefix matches from a small fixed list per argument. */
final class Completions {

    private static final Map<String, List<String>> CANDIDATES = Map.of(
            "arg1", List.of("paris", "park", "party", "test-value"),
            "arg2", List.of("hello", "help", "world"),
            "id", List.of("1", "123", "42"));

    private Completions() {
    }

    static ObjectNode complete(ObjectNode params) {
        String argument = Json.string(params.path("argument"), "name");
        String prefix = Json.string(params.path("argument"), "value");
        List<String> matches = CANDIDATES.getOrDefault(argument == null ? "" : argument, List.of()).stream()
                .filter(candidate -> prefix == null || candidate.startsWith(prefix))
                .toList();
        ObjectNode result = Json.object();
        ObjectNode completion = result.putObject("completion");
        ArrayNode values = completion.putArray("values");
        matches.forEach(values::add);
        completion.put("total", matches.size()).put("hasMore", false);
        return result;
    }
}
