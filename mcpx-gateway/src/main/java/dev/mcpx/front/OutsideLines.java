package dev.mcpx.front;

import dev.mcpx.protocol.JsonRpcMessage;
import java.util.ArrayDeque;
import java.util.Queue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Messages a host hears outside its calls that an upstream's reader hands over (log lines,
 * resource updates): sent in order on a virtual thread of their own, so a host that reads slowly
 * holds up only itself, never the upstream's reader (and with it every host's calls to that
 * upstream). At most {@link #LIMIT} wait; beyond that a message is dropped: a host that far
 * behind has lost its stream's worth of them anyway.
 */
final class OutsideLines {

    private static final Logger LOG = LoggerFactory.getLogger(OutsideLines.class);

    static final int LIMIT = 1024;

    private final HostChannel outside;
    private final Queue<JsonRpcMessage> waiting = new ArrayDeque<>();
    private boolean sending;
    /** Whether lines are being dropped now: told once per run of drops. */
    private boolean dropping;

    OutsideLines(HostChannel outside) {
        this.outside = outside;
    }

    void offer(JsonRpcMessage message) {
        synchronized (waiting) {
            if (waiting.size() >= LIMIT) {
                if (!dropping) {
                    dropping = true;
                    LOG.warn("a host reads too slowly to keep up with its upstreams' log lines and resource updates:"
                            + " dropping them until it catches up");
                }
                return;
            }
            dropping = false;
            waiting.add(message);
            if (sending) {
                return;
            }
            sending = true;
        }
        Thread.ofVirtual().name("mcpx-host-outside").start(this::drain);
    }

    private void drain() {
        while (true) {
            JsonRpcMessage next;
            synchronized (waiting) {
                next = waiting.poll();
                if (next == null) {
                    sending = false;
                    return;
                }
            }
            outside.send(next);
        }
    }
}
