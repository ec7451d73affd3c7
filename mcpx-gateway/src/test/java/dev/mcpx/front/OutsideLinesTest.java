package dev.mcpx.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Notification;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Lines for a host that does not read hold up neither the thread that hands them over nor each other's order. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OutsideLinesTest {

    @Test
    void aHostThatDoesNotReadHoldsUpNoSenderAndGetsWhatWasKeptInOrder() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        List<Integer> heard = new CopyOnWriteArrayList<>();
        OutsideLines lines = new OutsideLines(message -> {
            try {
                reading.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            heard.add(((Notification) message).params().path("n").asInt());
            return true;
        });
        int sent = OutsideLines.LIMIT + 500;
        // on this thread: if an offer waited for the host, the test would time out here
        for (int n = 0; n < sent; n++) {
            lines.offer(line(n));
        }
        reading.countDown();
        // lines keep their order, so once this one is heard every line kept before it was too
        int last = sent + 1_000;
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            lines.offer(line(last));
            assertThat(heard).contains(last);
        });

        List<Integer> kept = heard.stream().filter(n -> n < sent).toList();
        assertThat(kept).as("what was kept, in the order it was sent; the rest dropped")
                .hasSizeBetween(OutsideLines.LIMIT, OutsideLines.LIMIT + 1).isSorted().startsWith(0, 1, 2);
        assertThat(heard.getLast()).isEqualTo(last);
    }

    private static JsonRpcMessage line(int n) {
        return new Notification("notifications/message", Json.object().put("level", "info").put("n", n));
    }
}
