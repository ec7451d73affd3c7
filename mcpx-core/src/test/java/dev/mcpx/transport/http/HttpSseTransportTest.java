package dev.mcpx.transport.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.JsonRpcMessage;
import dev.mcpx.protocol.JsonRpcMessage.Request;
import dev.mcpx.protocol.RequestId;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.testkit.legacy.LegacySseUpstream;
import dev.mcpx.testkit.legacy.RecordedRequest;
import dev.mcpx.transport.Outbound;
import dev.mcpx.transport.Transport;
import dev.mcpx.transport.TransportEvent;
import dev.mcpx.transport.TransportKind;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class HttpSseTransportTest {

    private final RecordedEvents events = new RecordedEvents();
    private LegacySseUpstream upstream;
    private Transport transport;

    @BeforeEach
    void startUpstream() {
        upstream = LegacySseUpstream.started();
    }

    @AfterEach
    void stopAll() {
        if (transport != null) {
            transport.close();
        }
        upstream.close();
    }

    private Transport connect(Map<String, String> headers) {
        transport = LegacyHttpTransports.httpSse(
                new UpstreamEndpoint.Http(upstream.url(), headers, UpstreamEndpoint.HttpKind.SSE),
                LegacyHttpOptions.defaults().withConnectTimeout(Duration.ofSeconds(2)));
        transport.start(events);
        return transport;
    }

    private static Request echo(long id, String text) {
        ObjectNode params = Json.object();
        params.put("name", "echo");
        params.putObject("arguments").put("text", text);
        return new Request(RequestId.of(id), "tools/call", params);
    }

    @Test
    void messagesArePostedToTheAnnouncedEndpointAndAnsweredOnTheStream() {
        connect(Map.of("Authorization", "Bearer old"));
        transport.send(Outbound.of(echo(1, "over sse")));

        JsonRpcMessage.Result result = events.result(RequestId.of(1));
        assertThat(result.result().path("content").path(0).path("text").asString()).isEqualTo("over sse");
        assertThat(transport.kind()).isEqualTo(TransportKind.HTTP_SSE);
        assertThat(upstream.requests()).extracting(RecordedRequest::httpMethod).containsExactly("GET", "POST");
        assertThat(upstream.requests()).allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer old"));
    }

    @Test
    void aServerRequestOnTheStreamIsAnsweredByPosting() {
        connect(Map.of());
        ObjectNode params = Json.object();
        params.put("name", "ask");
        params.putObject("arguments").put("kind", "sampling");
        transport.send(Outbound.of(new Request(RequestId.of(7), "tools/call", params)));

        TransportEvent.Received asked = (TransportEvent.Received) events.await(e -> e instanceof TransportEvent.Received r
                && r.message() instanceof Request q && q.method().equals("sampling/createMessage"),
                Duration.ofSeconds(5), "a sampling request");
        ObjectNode answer = Json.object();
        answer.put("role", "assistant");
        answer.putObject("content").put("type", "text").put("text", "hello");
        transport.send(Outbound.of(new JsonRpcMessage.Result(((Request) asked.message()).id(), answer)));

        assertThat(events.result(RequestId.of(7)).result().path("content").path(0).path("text").asString())
                .contains("hello");
    }

    @Test
    void aDroppedStreamClosesTheTransport() {
        connect(Map.of());
        upstream.dropStreams();

        TransportEvent.Closed closed = events.await(TransportEvent.Closed.class, Duration.ofSeconds(5));
        assertThat(closed.cause()).isInstanceOf(UpstreamUnavailableException.class);
        assertThatThrownBy(() -> transport.send(Outbound.of(echo(2, "too late"))))
                .isInstanceOf(UpstreamUnavailableException.class);
    }

    @Test
    void anEndpointOnAnotherOriginIsRefused() {
        upstream.announceEndpoint("http://evil.example:9/steal");
        assertThatThrownBy(() -> connect(Map.of("Authorization", "Bearer secret")))
                .isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("another origin");
    }

    @Test
    void aRelativeEndpointResolvesAgainstTheSseUrl() {
        upstream.announceEndpoint("messages?sessionId=none");
        connect(Map.of());
        assertThatThrownBy(() -> transport.send(Outbound.of(echo(3, "x"))))
                .isInstanceOfSatisfying(dev.mcpx.protocol.HttpStatusException.class,
                        e -> assertThat(e.status()).isEqualTo(404));
    }

    @Test
    void aServerThatNeverOpensAStreamFailsTheStart() {
        upstream.close();
        assertThatThrownBy(() -> connect(Map.of())).isInstanceOf(UpstreamUnavailableException.class);
    }
}
