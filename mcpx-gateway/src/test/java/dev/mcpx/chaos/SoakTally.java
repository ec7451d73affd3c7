package dev.mcpx.chaos;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** Counters the callers and the fault schedule share during a run; every method is thread-safe. */
final class SoakTally {

    private final Map<String, AtomicLong> requested = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> answers = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> faults = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> fronts = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong disconnects = new AtomicLong();
    private final List<String> violations = new CopyOnWriteArrayList<>();

    /** A request is about to leave for {@code tool} (its exposed name). */
    void requested(String tool) {
        sent.incrementAndGet();
        count(requested, tool);
    }

    /** One answer arrived; {@code kind} is "result" or "error <code>". */
    void answered(String kind) {
        answered.incrementAndGet();
        count(answers, kind);
    }

    /** A request whose host hung up on purpose: it needs no answer, it may run at most once. */
    void disconnected(String tool) {
        disconnects.incrementAndGet();
        count(requested, tool);
    }

    /** The request just counted went through {@code front} ("http" or "stdio"). */
    void viaFront(String front) {
        count(fronts, front);
    }

    Map<String, Long> requestsByFront() {
        return snapshot(fronts);
    }

    /** An error answer, by upstream prefix, code and message with numbers blanked, to see what hosts were told. */
    void error(String description) {
        count(errors, description);
    }

    Map<String, Long> errorsByMessage() {
        return snapshot(errors);
    }

    void fault(String kind) {
        count(faults, kind);
    }

    /** Adds {@code n} to a fault counter: what an upstream saw while a fault lasted. */
    void faults(String kind, long n) {
        faults.computeIfAbsent(kind, k -> new AtomicLong()).addAndGet(n);
    }

    void violation(String what) {
        violations.add(what);
    }

    long requestedOf(String tool) {
        AtomicLong count = requested.get(tool);
        return count == null ? 0 : count.get();
    }

    long sent() {
        return sent.get();
    }

    long answeredCount() {
        return answered.get();
    }

    long disconnects() {
        return disconnects.get();
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    Map<String, Long> answersByKind() {
        return snapshot(answers);
    }

    Map<String, Long> faultsByKind() {
        return snapshot(faults);
    }

    private static void count(Map<String, AtomicLong> counters, String key) {
        counters.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
    }

    private static Map<String, Long> snapshot(Map<String, AtomicLong> counters) {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }
}
