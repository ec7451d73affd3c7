package dev.mcpx.client;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A request's progress as its caller hears it across every attempt. Progress MUST increase
 * (spec, utilities/progress), but a re-issued or retried request starts counting again: a
 * notification whose {@code progress} is not above the highest passed on is dropped, so the
 * caller sees 1, 2, 3, 4 where the upstream sent 1, then 1, 2, 3, 4.
 */
final class IncreasingProgress implements Consumer<ObjectNode> {

    private final Consumer<ObjectNode> caller;
    private final AtomicLong highest = new AtomicLong(Double.doubleToLongBits(Double.NEGATIVE_INFINITY));

    private IncreasingProgress(Consumer<ObjectNode> caller) {
        this.caller = caller;
    }

    /** {@code options} with its progress listener guarded, once per request. */
    static RequestOptions guard(RequestOptions options) {
        Consumer<ObjectNode> listener = options.progress();
        return listener == null || listener instanceof IncreasingProgress ? options
                : options.withProgress(new IncreasingProgress(listener));
    }

    @Override
    public void accept(ObjectNode params) {
        JsonNode progress = params.get("progress");
        if (progress != null && progress.isNumber()) {
            double value = progress.asDouble();
            long seen;
            do {
                seen = highest.get();
                if (value <= Double.longBitsToDouble(seen)) {
                    return;
                }
            } while (!highest.compareAndSet(seen, Double.doubleToLongBits(value)));
        }
        caller.accept(params);
    }
}
