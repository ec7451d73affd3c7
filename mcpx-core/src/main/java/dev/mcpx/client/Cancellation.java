package dev.mcpx.client;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** A signal the caller of a request can fire to cancel it (a host's cancellation, a disconnect). */
public final class Cancellation {

    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private volatile String reason;

    public void cancel(String why) {
        synchronized (this) {
            if (reason != null) {
                return;
            }
            reason = why == null ? "cancelled" : why;
        }
        listeners.forEach(listener -> listener.accept(reason));
    }

    public boolean isCancelled() {
        return reason != null;
    }

    public String reason() {
        return reason;
    }

    /** Runs {@code listener} once when cancelled (at once if already cancelled). Returns its remover. */
    Runnable onCancel(Consumer<String> listener) {
        listeners.add(listener);
        String already = reason;
        if (already != null) {
            listener.accept(already);
        }
        return () -> listeners.remove(listener);
    }
}
