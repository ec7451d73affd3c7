package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.protocol.Era;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.JsonRpcMessage.Result;
import dev.mcpx.protocol.RequestId;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The span queue is bounded: with a collector that never answers, spans past the queue's room
 * are dropped at once and counted, and ending a span never waits.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OtlpTracingTest {

    @Test
    void spansPastAFullQueueAreDroppedAndCountedWithoutWaiting() throws Exception {
        try (ServerSocket blackHole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            TelemetryOptions.Traces options = new TelemetryOptions.Traces(
                    URI.create("http://127.0.0.1:" + blackHole.getLocalPort() + "/v1/traces"), Map.of(), 1.0);
            Tracing tracing = OtlpTracing.start(options, "test", 4);
            try {
                for (int i = 0; i < 100; i++) {
                    Request request = new Request(new RequestId.Number(i), "ping", Json.object());
                    tracing.server(request, Era.LEGACY, "pipe", null).answered(new Result(request.id(), Json.object()));
                }
                // one batch of four is out (and hangs), four more wait: the rest had no room
                assertThat(tracing.dropped()).isGreaterThanOrEqualTo(100 - 4 - 4);
            } finally {
                tracing.close();
            }
        }
    }
}
