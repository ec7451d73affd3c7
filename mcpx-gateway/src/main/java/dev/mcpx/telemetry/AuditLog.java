package dev.mcpx.telemetry;

import dev.mcpx.config.ConfigException;
import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.Methods;
import dev.mcpx.router.HostCall;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code mcpx.audit}: one JSON line per host request that reached an upstream. Arguments and
 * results only when the operator opted in; nothing mcpx holds as a secret (tokens, upstream
 * headers, environment) is ever part of a line.
 */
public final class AuditLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    /** No audit log: nothing is built or written. */
    public static final AuditLog OFF = new AuditLog(null, false, false, Clock.systemUTC());

    private final OutputStream out;
    private final boolean arguments;
    private final boolean results;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();

    private AuditLog(OutputStream out, boolean arguments, boolean results, Clock clock) {
        this.out = out;
        this.arguments = arguments;
        this.results = results;
        this.clock = clock;
    }

    /** Lines to the configured file, appended to (created when missing), or to stderr. */
    public static AuditLog open(TelemetryOptions.Audit config, Path configFile) {
        OutputStream out;
        if (config.file().isEmpty()) {
            // the descriptor, not System.err: serve points System.out at System.err, and stdout must stay MCP's
            out = new FileOutputStream(FileDescriptor.err);
        } else {
            Path file = config.file().get();
            try {
                out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new ConfigException(configFile, null, "mcpx.audit: cannot open " + file + " for appending: " + e.getMessage());
            }
        }
        return new AuditLog(out, config.arguments(), config.results(), Clock.systemUTC());
    }

    /** What one routed call left behind; {@code errorType} empty when it succeeded. */
    record Entry(String upstream, HostCall call, String target, long nanos, String errorType, List<String> recoveries,
                 JsonNode result, McpException error) {
    }

    void write(Entry entry) {
        if (out == null) {
            return;
        }
        byte[] line = (Json.write(line(entry)) + "\n").getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            out.write(line);
            out.flush();
        } catch (IOException e) {
            LOG.warn("audit log: a line was not written: {}", e.toString());
        } finally {
            lock.unlock();
        }
    }

    private ObjectNode line(Entry entry) {
        ObjectNode line = Json.object();
        line.put("time", Instant.now(clock).toString());
        line.put("hostSession", entry.call().hostSession());
        line.put("upstream", entry.upstream());
        line.put("method", entry.call().method());
        String field = switch (entry.call().method()) {
            case Methods.TOOLS_CALL -> "tool";
            case Methods.PROMPTS_GET -> "prompt";
            case Methods.RESOURCES_READ -> "uri";
            default -> "target";
        };
        line.put(field, entry.target());
        line.put("durationMs", Math.round(entry.nanos() / 1e4) / 100.0);
        line.put("outcome", entry.error() != null ? "error" : entry.errorType().isEmpty() ? "ok" : "tool_error");
        if (entry.error() != null) {
            line.put("errorType", entry.errorType());
            line.put("error", entry.error().toError().message());
        }
        ArrayNode recoveries = line.putArray("recoveries");
        entry.recoveries().forEach(recoveries::add);
        if (arguments && entry.call().params() != null && entry.call().params().get("arguments") != null) {
            line.set("arguments", entry.call().params().get("arguments"));
        }
        if (results && entry.result() != null) {
            line.set("result", entry.result());
        }
        return line;
    }

    @Override
    public void close() {
        if (out != null) {
            try {
                out.flush();
            } catch (IOException e) {
                LOG.debug("audit log: {}", e.toString());
            }
        }
    }
}
