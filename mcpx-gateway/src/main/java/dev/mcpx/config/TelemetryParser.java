package dev.mcpx.config;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reads {@code mcpx.metrics}, {@code mcpx.audit} and {@code mcpx.logFormat}. */
final class TelemetryParser {

    private static final Set<String> AUDIT_KEYS = Set.of("file", "arguments", "results");

    private TelemetryParser() {
    }

    static TelemetryOptions parse(Path file, ObjectNode options) {
        Fields fields = new Fields(file, null, "mcpx.");
        Boolean metrics = fields.bool(options, "metrics");
        String format = fields.string(options, "logFormat");
        if (format != null && !format.equals("text") && !format.equals("json")) {
            throw fields.problem("mcpx.logFormat must be \"text\" or \"json\", not \"" + format + "\"");
        }
        return new TelemetryOptions(metrics == null || metrics, audit(file, options.get("audit")), "json".equals(format));
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
