package dev.mcpx.testkit.modern;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * One HTTP request as the fake upstream received it. {@code headers} are keyed by lower-case
 * name; {@code id}, {@code rpcMethod} and {@code name} (tool or prompt name, resource URI) are
 * null when the body had none.
 */
public record RecordedRequest(String httpMethod, Map<String, List<String>> headers, JsonNode id,
                              String rpcMethod, String name, String body) {

    public RecordedRequest {
        headers = Map.copyOf(headers);
    }

    /** The first value of header {@code name} (any case), or null. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.getFirst();
    }
}
