package dev.mcpx.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads {@code mcpx.metrics}, {@code mcpx.audit}, {@code mcpx.logFormat} and {@code mcpx.telemetry}. */
final class TelemetryParser {

    private static final Set<String> AUDIT_KEYS = Set.of("file", "arguments", "results");
    private static final Set<String> TRACES_KEYS = Set.of("endpoint", "headers", "sampling", "protocol");
    static final String OTLP_HTTP_PROTOBUF = "http/protobuf";

    private TelemetryParser() {
    }

    static TelemetryOptions parse(Path file, ObjectNode options, VariableExpander expander) {
        Fields fields = new Fields(file, null, "mcpx.");
        Boolean metrics = fields.bool(options, "metrics");
        String format = fields.string(options, "logFormat");
        if (format != null && !format.equals("text") && !format.equals("json")) {
            throw fields.problem("mcpx.logFormat must be \"text\" or \"json\", not \"" + format + "\"");
        }
        return new TelemetryOptions(metrics == null || metrics, audit(file, options.get("audit")), "json".equals(format),
                traces(file, options.get("telemetry"), expander));
    }

    private static Optional<TelemetryOptions.Traces> traces(Path file, JsonNode node, VariableExpander expander) {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        Fields fields = new Fields(file, null, "mcpx.telemetry.");
        if (!(node instanceof ObjectNode traces)) {
            throw fields.problem("\"mcpx.telemetry\" must be an object with \"endpoint\" (and \"headers\", \"sampling\"), not "
                    + Fields.kind(node));
        }
        for (String name : traces.propertyNames()) {
            if (!TRACES_KEYS.contains(name)) {
                throw fields.problem("\"mcpx.telemetry\" has unknown key \"" + name
                        + "\" (known: endpoint, headers, sampling, protocol)");
            }
        }
        String protocol = fields.string(traces, "protocol");
        if (protocol != null && !protocol.equals(OTLP_HTTP_PROTOBUF)) {
            throw fields.problem("mcpx.telemetry.protocol must be \"" + OTLP_HTTP_PROTOBUF + "\" (the only one mcpx sends), not \""
                    + protocol + "\"");
        }
        String endpoint = fields.string(traces, "endpoint");
        if (endpoint == null) {
            throw fields.problem("mcpx.telemetry needs \"endpoint\": the collector's OTLP/HTTP address, "
                    + "e.g. \"http://127.0.0.1:4318\"");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        fields.stringMap(traces, "headers").forEach((name, value) ->
                headers.put(name, expanded(fields, expander, value, "mcpx.telemetry.headers." + name)));
        JsonNode sampling = traces.get("sampling");
        if (sampling != null && !sampling.isNull() && (!sampling.isNumber() || sampling.asDouble() < 0 || sampling.asDouble() > 1)) {
            throw fields.problem("mcpx.telemetry.sampling must be a number from 0 to 1 (the ratio of new traces kept), not "
                    + sampling);
        }
        return Optional.of(new TelemetryOptions.Traces(tracesUrl(fields, expanded(fields, expander, endpoint, "mcpx.telemetry.endpoint")),
                headers, sampling == null || sampling.isNull() ? 1.0 : sampling.asDouble()));
    }

    /** The collector's base address gets OTLP's {@code /v1/traces}; a URL with a path is taken as it is. */
    private static URI tracesUrl(Fields fields, String endpoint) {
        try {
            URI uri = new URI(endpoint);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw fields.problem("mcpx.telemetry.endpoint must be an http or https URL, not \"" + endpoint + "\"");
            }
            String path = uri.getRawPath();
            return path == null || path.isEmpty() || path.equals("/") ? uri.resolve("/v1/traces") : uri;
        } catch (URISyntaxException e) {
            throw fields.problem("mcpx.telemetry.endpoint is not a URL: " + e.getMessage());
        }
    }

    private static String expanded(Fields fields, VariableExpander expander, String text, String where) {
        try {
            return expander.expand(text, where);
        } catch (VariableExpander.UndefinedVariable e) {
            throw fields.problem(e.getMessage());
        }
    }

    private static Optional<TelemetryOptions.Audit> audit(Path file, JsonNode node) {
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        Fields fields = new Fields(file, null, "mcpx.audit.");
        if (node.isString()) {
            return Optional.of(new TelemetryOptions.Audit(target(file, fields, node.asString()), false, false));
        }
        if (!(node instanceof ObjectNode audit)) {
            throw fields.problem("\"mcpx.audit\" must be \"stderr\", a file path, or an object with \"file\", "
                    + "\"arguments\" and \"results\", not " + Fields.kind(node));
        }
        for (String name : audit.propertyNames()) {
            if (!AUDIT_KEYS.contains(name)) {
                throw fields.problem("\"mcpx.audit\" has unknown key \"" + name + "\" (known: file, arguments, results)");
            }
        }
        String where = fields.string(audit, "file");
        Boolean arguments = fields.bool(audit, "arguments");
        Boolean results = fields.bool(audit, "results");
        return Optional.of(new TelemetryOptions.Audit(target(file, fields, where == null ? "stderr" : where),
                arguments != null && arguments, results != null && results));
    }

    /** {@code stderr}, or a file relative to the config file's folder. */
    private static Optional<Path> target(Path file, Fields fields, String where) {
        if (where.isBlank()) {
            throw fields.problem("mcpx.audit.file must be \"stderr\" or a file path, not empty");
        }
        if (where.equals("stderr")) {
            return Optional.empty();
        }
        Path base = file.toAbsolutePath().getParent();
        return Optional.of(base == null ? Path.of(where) : base.resolve(where));
    }
}
