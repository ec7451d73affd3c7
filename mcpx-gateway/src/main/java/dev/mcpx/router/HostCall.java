package dev.mcpx.router;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.ServerRequestHandler;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import java.util.function.Consumer;
import tools.jackson.databind.node.ObjectNode;

/**
 * One host request the router forwards. {@code hostProgress} receives ready-to-send
 * {@code notifications/progress} params for the host (its own token); {@code cancellation}
 * fires when the host cancels or goes away. {@code hostEra} is the host's era (null: unknown);
 * {@code hostCapabilities} what the host declared (null: unknown); {@code hostAsks} passes
 * the upstream's server->client requests to the host (null: refused with a JSON-RPC error).
 * {@code hostLog} sends a {@code notifications/message} to the host during the call (null: the
 * host hears none); {@code hostLogLevel} is the least severe level it asked for (a legacy
 * host's {@code logging/setLevel}, a modern host's {@code _meta}; null: none asked).
 * {@code hostSession} names the host's session for the audit log ({@code stdio}, a legacy HTTP
 * session's non-secret name; null: a stateless modern host). {@code hostNotices} tells the
 * host's session something after the call was answered (a legacy host's listen stream or stdout;
 * null: it cannot be told).
 */
public record HostCall(String method, ObjectNode params, Consumer<ObjectNode> hostProgress,
                       Cancellation cancellation, Era hostEra, ObjectNode hostCapabilities,
                       ServerRequestHandler hostAsks, Consumer<ObjectNode> hostLog, LogLevel hostLogLevel,
                       String hostSession, Consumer<Notification> hostNotices) {

    public HostCall(String method, ObjectNode params, Consumer<ObjectNode> hostProgress, Cancellation cancellation,
                    Era hostEra, ObjectNode hostCapabilities, ServerRequestHandler hostAsks, Consumer<ObjectNode> hostLog,
                    LogLevel hostLogLevel, String hostSession) {
        this(method, params, hostProgress, cancellation, hostEra, hostCapabilities, hostAsks, hostLog, hostLogLevel,
                hostSession, null);
    }

    public HostCall(String method, ObjectNode params, Consumer<ObjectNode> hostProgress, Cancellation cancellation,
                    Era hostEra, ObjectNode hostCapabilities, ServerRequestHandler hostAsks, Consumer<ObjectNode> hostLog,
                    LogLevel hostLogLevel) {
        this(method, params, hostProgress, cancellation, hostEra, hostCapabilities, hostAsks, hostLog, hostLogLevel, null);
    }

    public HostCall(String method, ObjectNode params, Consumer<ObjectNode> hostProgress, Cancellation cancellation) {
        this(method, params, hostProgress, cancellation, null, null, null, null, null, null);
    }

    public HostCall(String method, ObjectNode params, Consumer<ObjectNode> hostProgress, Cancellation cancellation,
                    Era hostEra, ObjectNode hostCapabilities, ServerRequestHandler hostAsks) {
        this(method, params, hostProgress, cancellation, hostEra, hostCapabilities, hostAsks, null, null, null);
    }

    /** The same call with other params (mcpx's own round of it taken out). */
    HostCall withParams(ObjectNode newParams) {
        return new HostCall(method, newParams, hostProgress, cancellation, hostEra, hostCapabilities, hostAsks, hostLog,
                hostLogLevel, hostSession, hostNotices);
    }
}
