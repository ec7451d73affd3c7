package dev.mcpx.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads {@code mcpx.limits}: every key optional, each a whole number within its range. */
final class LimitsParser {

    private static final List<String> KEYS = List.of("maxMessageBytes", "maxSseEventBytes", "maxHeaderBytes",
            "maxConcurrentCallsPerHost", "requestTimeoutMs");
    /** Past 1 GiB a message no longer fits the codec's int-sized buffers. */
    private static final long MAX_BYTES = 1L << 30;
    /** The HTTP front's own request line and a host's usual headers need about this much. */
    private static final long MIN_HEADER_BYTES = 1024;
    /** Room for a JSON-RPC envelope and a short result. */
    private static final long MIN_MESSAGE_BYTES = 256;

    private LimitsParser() {
    }

    static Limits parse(Path file, JsonNode node) {
        if (node == null || node.isNull()) {
            return Limits.DEFAULTS;
        }
        if (!(node instanceof ObjectNode limits)) {
            throw new ConfigException(file, null, "\"mcpx.limits\" must be an object, not " + Fields.kind(node));
        }
        for (String name : limits.propertyNames()) {
            if (!KEYS.contains(name)) {
                throw new ConfigException(file, null, "\"mcpx.limits\" has unknown limit \"" + name + "\" (known: "
                        + String.join(", ", KEYS) + ")");
            }
        }
        Limits d = Limits.DEFAULTS;
        return new Limits(
                (int) number(file, limits, "maxMessageBytes", MIN_MESSAGE_BYTES, MAX_BYTES, d.maxMessageBytes()),
                (int) number(file, limits, "maxSseEventBytes", MIN_MESSAGE_BYTES, MAX_BYTES, d.maxSseEventBytes()),
                (int) number(file, limits, "maxHeaderBytes", MIN_HEADER_BYTES, 1L << 20, d.maxHeaderBytes()),
                (int) number(file, limits, "maxConcurrentCallsPerHost", 1, 100_000, d.maxConcurrentCallsPerHost()),
                Duration.ofMillis(number(file, limits, "requestTimeoutMs", 1, Duration.ofDays(1).toMillis(),
                        d.requestTimeout().toMillis())));
    }

    private static long number(Path file, ObjectNode limits, String name, long min, long max, long fallback) {
        JsonNode value = limits.get(name);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < min || value.asLong() > max) {
            throw new ConfigException(file, null, "\"mcpx.limits." + name + "\" must be a whole number from " + min
                    + " to " + max + ", not " + Fields.kind(value));
        }
        return value.asLong();
    }
}
