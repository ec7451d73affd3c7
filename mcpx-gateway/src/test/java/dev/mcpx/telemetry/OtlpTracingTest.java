package dev.mcpx.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.config.TelemetryOptions;
import dev.mcpx.front.HostObserver;
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
import tools.jackson.databind.node.ObjectNode;

/**
 * The span queue is bounded: with a collector that never answers, spans past the queue's room
 * are dropped at once and counted, and ending a span never waits. Sampling: a trace left out is
 * not sent, but the upstream still hears its context, flagged as not sampled.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OtlpTracingTest {

    @Test
    void aTraceLeftOutBySamplingIsNotSentButItsContextStillReachesTheUpstream() throws Exception {
        try (OtlpReceiver collector = OtlpReceiver.start()) {
            Tracing tracing = OtlpTracing.start(new TelemetryOptions.Traces(collector.endpoint().resolve("/v1/traces"),
                    Map.of(), 0.0), "test");
            ObjectNode upstreamRequest = Json.object().put("name", "echo");
            try {
                Request request = new Request(new RequestId.Number(1), "tools/call", Json.object().put("name", "x__echo"));
                HostObserver.Answering answering = tracing.server(request, Era.LEGACY, "pipe", null);
                Tracing.ClientSpan span = tracing.client(new Tracing.UpstreamCall("x", "stdio", null, "2025-11-25",
                        "tools/call", "echo"));
                span.propagate(upstreamRequest);
                span.ended("", null);
                answering.answered(new Result(request.id(), Json.object()));
            } finally {
                tracing.close();
            }
            String traceparent = upstreamRequest.path("_meta").path("traceparent").asString();
            assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
            assertThat(Integer.parseInt(traceparent.substring(53), 16) & 1).as("a new trace, not kept: the sampled flag is off")
                    .isZero();
            assertThat(collector.spans()).as("close sent what was queued: nothing").isEmpty();
        }
    }

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
