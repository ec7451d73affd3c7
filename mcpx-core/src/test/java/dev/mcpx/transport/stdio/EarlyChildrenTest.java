package dev.mcpx.transport.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.testkit.stdio.CommandLines;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A child started early is the one the first transport for its endpoint talks to, and only that one's. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EarlyChildrenTest {

    @AfterEach
    void stopWhatWaits() {
        EarlyChildren.stopUnclaimed();
    }

    @Test
    void theFirstTransportTakesTheEarlyChildAndTheNextStartsItsOwn() throws Exception {
        UpstreamEndpoint.Stdio endpoint = UpstreamEndpoint.Stdio.of("sleep", "601");
        EarlyChildren.start(endpoint);
        EarlyChildren.start(endpoint);
        List<ProcessHandle> early = children("601");
        assertThat(early).hasSize(1);
        Transport first = StdioTransports.open(endpoint, 1_000);
        Transport second = StdioTransports.open(endpoint, 1_000);
        try {
            first.start(event -> { });
            assertThat(first.pid()).contains(early.get(0).pid());
            second.start(event -> { });
            assertThat(second.pid()).isPresent().isNotEqualTo(first.pid());
            assertThat(children("601")).hasSize(2);
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void aChildNobodyTakesIsStoppedAndATransportThenStartsAFreshOne() throws Exception {
        UpstreamEndpoint.Stdio endpoint = UpstreamEndpoint.Stdio.of("sleep", "602");
        EarlyChildren.start(endpoint, Duration.ofMillis(100));
        ProcessHandle early = children("602").get(0);
        early.onExit().get(30, TimeUnit.SECONDS);
        Transport transport = StdioTransports.open(endpoint, 1_000);
        try {
            transport.start(event -> { });
            assertThat(transport.pid()).isPresent().isNotEqualTo(java.util.Optional.of(early.pid()));
        } finally {
            transport.close();
        }
    }

    @Test
    void stoppingTheUnclaimedEndsEveryWaitingChild() throws Exception {
        EarlyChildren.start(UpstreamEndpoint.Stdio.of("sleep", "603"));
        EarlyChildren.start(UpstreamEndpoint.Stdio.of("sleep", "604"));
        List<ProcessHandle> waiting = List.of(children("603").get(0), children("604").get(0));
        EarlyChildren.stopUnclaimed();
        for (ProcessHandle child : waiting) {
            child.onExit().get(30, TimeUnit.SECONDS);
        }
        assertThat(children("603")).isEmpty();
        assertThat(children("604")).isEmpty();
    }

    private static List<ProcessHandle> children(String seconds) {
        return CommandLines.childrenRunning("sleep", seconds);
    }
}
