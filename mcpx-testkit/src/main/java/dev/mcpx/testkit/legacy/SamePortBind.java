package dev.mcpx.testkit.legacy;

import java.util.function.IntConsumer;

/**
 * Binds a fake that restarts on the port its stopped self just released: the kernel may still
 * hold it for a moment while the close finishes, so a refused bind is tried again, a bounded
 * number of times. Port 0 (a fresh one) is never retried: its failure is real.
 */
final class SamePortBind {

    private static final int ATTEMPTS = 30;

    private SamePortBind() {
    }

    /** {@code bind} throws {@link IllegalStateException} when the port is taken. */
    static void bind(int port, IntConsumer bind) {
        for (int attempt = 1; ; attempt++) {
            try {
                bind.accept(port);
                return;
            } catch (IllegalStateException e) {
                if (port == 0 || attempt == ATTEMPTS) {
                    throw e;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
