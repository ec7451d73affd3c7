package dev.mcpx.router;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.MetaKeys;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * The upstream's {@code notifications/message} lines of one call, on their way to the calling
 * host: at or above the level the host asked for, and to a modern host only when it asked.
 */
final class CallLogs {

    private CallLogs() {
    }

    /**
     * Asks a modern upstream for the host's level in {@code _meta} (2026-07-28 servers log only
     * for requests that carry it); a legacy upstream logs per session, so nothing is added.
     */
    static void askUpstream(HostCall call, ObjectNode upstreamRequest, boolean modernUpstream) {
        if (!modernUpstream || call.hostLog() == null || call.hostLogLevel() == null) {
            return;
        }
        ObjectNode meta = Json.objectAt(upstreamRequest, MetaKeys.META);
        if (meta == null) {
            meta = upstreamRequest.putObject(MetaKeys.META);
        }
        meta.put(MetaKeys.LOG_LEVEL, call.hostLogLevel().wire());
    }

    /** What passes a log line to the host, or null when the host hears none. */
    static Consumer<ObjectNode> toHost(HostCall call) {
        if (call.hostLog() == null) {
            return null;
        }
        LogLevel wanted = call.hostLogLevel();
        if (wanted == null && call.hostEra() != Era.LEGACY) {
            // 2026-07-28: no logLevel in the request, no notifications/message for it
            return null;
        }
        return params -> {
            if (LogLevel.heard(wanted, params)) {
                call.hostLog().accept(params);
            }
        };
    }
}
