package dev.mcpx.client;

import dev.mcpx.protocol.UpstreamUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fault that repeats is a condition of the upstream, not an event: sessions lost right after
 * their initialize, every response stream breaking, an era that flips back. While one holds,
 * requests are refused at once with its reason, and once per backoff step (capped exponential)
 * one probe finds out whether it still holds: either an active probe run here (for lost
 * sessions: initialize and ping, so the condition heals with no traffic at all), or the next
 * request, let through alone. The first probe that passes ends the condition; the same fault
 * coming back soon after resumes the backoff where it was instead of starting over.
 */
final class FaultCondition {

    private static final Logger log = LoggerFactory.getLogger(McpClient.class);

    /** What kind of repeated fault holds. */
    enum Kind {
        SESSIONS_LOST_AFTER_INITIALIZE,
        EVERY_STREAM_BREAKS,
        ERA_FLIPS
    }

    /** The condition that holds: why (for the operator), the backoff step, the next probe, and whether one is out. */
    record State(Kind kind, String reason, boolean activeProbe, Duration backoff, long sinceNanos, long nextProbeNanos,
                 boolean probing) {

        State probingNow() {
            return new State(kind, reason, activeProbe, backoff, sinceNanos, nextProbeNanos, true);
        }
    }

    private final String name;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final AtomicReference<State> current = new AtomicReference<>();
    private volatile Thread prober;
    private volatile boolean closed;
    private volatile State lastHealed;
    private volatile long healedAtNanos;

    FaultCondition(String name, Duration initialBackoff, Duration maxBackoff) {
        this.name = name;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    Optional<State> current() {
        return Optional.ofNullable(current.get());
    }

    /**
     * The condition {@code kind} holds from now on, unless one already does. {@code probe} (null:
     * the next request after each step is the probe) runs after each backoff step on a thread of
     * its own; true means the upstream behaves again.
     */
    void enter(Kind kind, String reason, BooleanSupplier probe) {
        long now = System.nanoTime();
        Duration backoff = initialBackoff;
        State last = lastHealed;
        if (last != null && last.kind() == kind && now - healedAtNanos < last.backoff().multipliedBy(4).toNanos()) {
            backoff = doubled(last.backoff());
        }
        State entered = new State(kind, reason, probe != null, backoff, now, now + backoff.toNanos(), false);
        if (closed || !current.compareAndSet(null, entered)) {
            return;
        }
        log.warn("{}: {}; refusing requests at once, probing again in {} ms", name, reason, backoff.toMillis());
        if (probe != null) {
            prober = Thread.ofVirtual().name("mcpx-probe-" + name).start(() -> probeUntilHealed(probe));
        }
    }

    /**
     * The refusal a request gets while a condition holds, or null when it may go: none holds, or
     * the backoff step is over and this request is the one probe (then {@link #passed} or
     * {@link #failedAgain} must follow).
     */
    UpstreamUnavailableException refusal(String method, boolean mayProbe) {
        while (true) {
            State state = current.get();
            if (state == null) {
                return null;
            }
            if (mayProbe && !state.activeProbe() && !state.probing() && System.nanoTime() - state.nextProbeNanos() >= 0) {
                if (current.compareAndSet(state, state.probingNow())) {
                    return null;
                }
                continue;
            }
            long nextInMillis = Math.max(0, (state.nextProbeNanos() - System.nanoTime()) / 1_000_000);
            return new UpstreamUnavailableException(name + ": " + state.reason() + "; " + method
                    + " was not sent (next probe in " + nextInMillis + " ms)");
        }
    }

    /** The error of the request whose failure showed the condition: it went out, and there is nothing left to try. */
    UpstreamUnavailableException failure(String method, Throwable cause) {
        State state = current.get();
        String reason = state == null ? "the upstream failed the same way again" : state.reason();
        long nextInMillis = state == null ? 0 : Math.max(0, (state.nextProbeNanos() - System.nanoTime()) / 1_000_000);
        return new UpstreamUnavailableException(name + ": " + reason + "; " + method + " failed, and requests are"
                + " refused at once until a probe finds the upstream healed (next in " + nextInMillis + " ms)", cause);
    }

    /** The upstream answered a request: a probe out ends the condition. */
    void passed() {
        State state = current.get();
        if (state != null && state.probing() && current.compareAndSet(state, null)) {
            healed(state);
        }
    }

    /** The probe request met the fault again: the next step is twice as long. */
    void failedAgain() {
        State state = current.get();
        if (state != null && state.probing()) {
            current.compareAndSet(state, next(state));
        }
    }

    private void probeUntilHealed(BooleanSupplier probe) {
        while (!closed) {
            State state = current.get();
            if (state == null) {
                return;
            }
            long wait = state.nextProbeNanos() - System.nanoTime();
            try {
                if (wait > 0) {
                    Thread.sleep(Duration.ofNanos(wait));
                }
            } catch (InterruptedException e) {
                return;
            }
            boolean healed;
            try {
                healed = probe.getAsBoolean();
            } catch (RuntimeException e) {
                log.debug("{}: probe failed: {}", name, e.toString());
                healed = false;
            }
            if (closed) {
                return;
            }
            if (healed) {
                current.set(null);
                healed(state);
                return;
            }
            current.set(next(state));
        }
    }

    private State next(State state) {
        Duration backoff = doubled(state.backoff());
        log.info("{}: {} still; probing again in {} ms", name, state.reason(), backoff.toMillis());
        return new State(state.kind(), state.reason(), state.activeProbe(), backoff, state.sinceNanos(),
                System.nanoTime() + backoff.toNanos(), false);
    }

    private void healed(State state) {
        lastHealed = state;
        healedAtNanos = System.nanoTime();
        log.info("{}: the upstream behaves again after {} ms; requests go through", name,
                (System.nanoTime() - state.sinceNanos()) / 1_000_000);
    }

    private Duration doubled(Duration backoff) {
        Duration twice = backoff.multipliedBy(2);
        return twice.compareTo(maxBackoff) > 0 ? maxBackoff : twice;
    }

    void close() {
        closed = true;
        Thread t = prober;
        if (t != null) {
            t.interrupt();
        }
    }
}
