package dev.mcpx.client;

import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.ToolDescriptor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Sends a message once more when its response was lost: its POST got nothing back (no status
 * line: a kept-alive connection the upstream closed as it restarted or idled out), or, on a
 * modern upstream, its response stream broke (recovery Phase 2). The upstream may have run it
 * either way, so a request goes again only when a repeat is harmless ({@link ReissuePolicy}),
 * once, with a new id. The handshake ({@code initialize}, {@code server/discover}), notifications
 * and responses are harmless to repeat by nature: a second initialize opens a fresh session, a
 * repeated cancellation or {@code initialized} changes nothing, and a response the upstream
 * already has answers an id it no longer waits for. Each resend counts in {@code reissues} and
 * logs one INFO line.
 */
final class Resends {

    /** The client's logger: a resend is the client's act, as the Phase 2 re-issue always logged it. */
    private static final Logger log = LoggerFactory.getLogger(McpClient.class);

    private final String name;
    private final ReissuePolicy policy;
    private final ClientCounters counters;

    Resends(String name, ReissuePolicy policy, ClientCounters counters) {
        this.name = name;
        this.policy = policy;
        this.counters = counters;
    }

    /**
     * Whether request {@code method}, whose response {@code lost} describes, may go once more:
     * a modern broken stream, or a POST that got nothing back in either era, and then only when
     * the policy says a repeat is harmless. Legacy streams that broke mid-response resume with
     * {@code Last-Event-ID} instead (the transport has tried that already), except a request left
     * on a transport an era switch closed: nothing can resume it there.
     */
    boolean mayReissue(Era era, StreamLostException lost, String method, ObjectNode params,
                       Function<String, ToolDescriptor> lookUpTool) {
        return (era == Era.MODERN || lost.noResponse() || lost.getCause() instanceof EraSwitch.LeftBehind)
                && harmlessToRepeat(method, params, lookUpTool);
    }

    /** Whether running request {@code method} once more is harmless ({@link ReissuePolicy}), whatever lost its answer. */
    boolean harmlessToRepeat(String method, ObjectNode params, Function<String, ToolDescriptor> lookUpTool) {
        return policy.allows(method, params, lookUpTool);
    }

    /** Counts and logs the resend of request {@code method} (sent as {@code id}) about to happen. */
    void reissuing(String method, RequestId id, StreamLostException lost) {
        counters.reissues.incrementAndGet();
        if (lost.noResponse()) {
            log.info("{}: no response to {} {}: the connection closed before a status line ({}); sending it once more"
                    + " with a new id", name, method, id, String.valueOf(lost.getCause()));
        } else {
            log.info("{}: response stream of {} {} broke; re-issuing once with a new id", name, method, id);
        }
    }

    /** A handshake exchange, which gives itself a new id each time: once more when nothing came back. */
    JsonNode handshake(String method, Supplier<JsonNode> exchange) {
        try {
            return exchange.get();
        } catch (StreamLostException lost) {
            if (!lost.noResponse()) {
                throw lost;
            }
            reissuing(method, lost.requestId(), lost);
            return exchange.get();
        }
    }

    /** Sends a notification or a response ({@code what} names it): once more when its POST got nothing back. */
    void message(String what, Runnable send) {
        try {
            send.run();
        } catch (StreamLostException lost) {
            if (!lost.noResponse()) {
                throw lost;
            }
            counters.reissues.incrementAndGet();
            log.info("{}: no response to {}: the connection closed before a status line ({}); sending it once more",
                    name, what, String.valueOf(lost.getCause()));
            send.run();
        }
    }
}
