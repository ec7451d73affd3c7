package dev.mcpx.router;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * The task ids hosts see (tasks extension): the upstream's own id, prefixed reversibly with the
 * upstream that minted it, {@code base64url(upstream name) "." upstream id}. Rewriting rather than
 * remembering (a map taskId -> upstream) because two upstreams may mint the same id, which a map
 * keyed by it cannot tell apart; a rewritten id also needs no memory to bound or expire (ttlMs
 * may be null: no expiry), still routes after a gateway restart, and any listing of tasks can be
 * paged without state. Hosts treat ids as opaque, so the prefix costs them nothing.
 */
final class TaskIds {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    /** A task as its upstream knows it. */
    record UpstreamTask(String upstream, String taskId) {
    }

    private TaskIds() {
    }

    static String toHost(String upstream, String upstreamTaskId) {
        return ENCODER.encodeToString(upstream.getBytes(StandardCharsets.UTF_8)) + "." + upstreamTaskId;
    }

    /** The upstream and its id, or empty when {@code hostTaskId} is not one mcpx handed out. */
    static Optional<UpstreamTask> fromHost(String hostTaskId) {
        int dot = hostTaskId.indexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        try {
            String upstream = new String(DECODER.decode(hostTaskId.substring(0, dot)), StandardCharsets.UTF_8);
            return Optional.of(new UpstreamTask(upstream, hostTaskId.substring(dot + 1)));
        } catch (IllegalArgumentException notOurs) {
            return Optional.empty();
        }
    }
}
