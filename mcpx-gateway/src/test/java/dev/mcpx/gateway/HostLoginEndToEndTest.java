package dev.mcpx.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mcpx.gateway.HttpHost.Exchange;
import dev.mcpx.protocol.Json;
import dev.mcpx.testkit.NodeTools;
import dev.mcpx.testkit.OAuthServer;
import dev.mcpx.testkit.modern.ModernHttpUpstream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The login an upstream needs, offered to the host through URL-mode elicitation, through the
 * real gateway ({@code mcpx serve} as its own process) against a real authorization server
 * (oauth2-mock-server): the host receives the authorization URL, the test opens it as a browser
 * would (following the redirects back to mcpx's loopback listener), and the host's call then
 * reaches the upstream. No {@code mcpx login}, no terminal.
 */
class HostLoginEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private OAuthServer authorizationServer;
    private ModernHttpUpstream upstream;
    private Path config;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        authorizationServer = OAuthServer.start(NodeTools.require());
        upstream = ModernHttpUpstream.start().requireBearer(authorizationServer.issuer());
        ObjectNode root = Json.object();
        root.putObject("mcpServers").putObject("remote").put("url", upstream.url().toString())
                .putObject("oauth").put("client_id", "mcpx-test");
        config = Files.writeString(dir.resolve("mcpx.json"), Json.write(root));
        // a browser opened by mcpx would fail the test: the host is the one to show the URL
        env = Map.of("MCPX_HOME", dir.resolve("home").toString(), "BROWSER", "/bin/false");
    }

    @AfterEach
    void stop() {
        upstream.close();
        authorizationServer.close();
    }

    @Test
    void aLegacyHttpHostGetsTheUrlInA32042AndItsRetryAfterTheCompleteNotificationWorks() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost host = HttpHost.legacy(serve.mcpUri());
            host.initialize(urlElicitation());
            Listen listen = Listen.open(host);

            Exchange refused = host.call("remote__plain_tool", Json.object().put("text", "hi"));

            assertThat(refused.errorCode()).as(refused.body()).isEqualTo(-32042);
            JsonNode elicitation = refused.reply().path("error").path("data").path("elicitations").path(0);
            assertThat(elicitation.path("mode").asString()).isEqualTo("url");
            assertThat(elicitation.propertyNames()).containsExactlyInAnyOrder("mode", "elicitationId", "url", "message");
            String url = elicitation.path("url").asString();
            assertOnlyTheAuthorizationUrl(url);
            assertThat(upstream.executions("plain_tool")).isZero();

            openInBrowser(url);

            JsonNode complete = listen.await("notifications/elicitation/complete");
            assertThat(complete.path("params").path("elicitationId").asString())
                    .isEqualTo(elicitation.path("elicitationId").asString());
            listen.await("notifications/tools/list_changed");
            Exchange retried = host.call("remote__plain_tool", Json.object().put("text", "hi"));
            assertThat(retried.reply().has("error")).as(retried.body() + serve.stderr()).isFalse();
            assertThat(retried.text()).isNotEmpty();
            assertThat(host.request("tools/list", null).body()).contains("remote__plain_tool");
            assertThat(upstream.executions("plain_tool")).isEqualTo(1);
            assertThat(authorizationServer.tokenRequests("authorization_code")).isEqualTo(1);
            assertThat(remote(status(host, serve)).path("state").asString()).isEqualTo("up");
        }
    }

    @Test
    void aModernHttpHostGetsAnInputRequiredResultAndItsAcceptedRetryWaitsForTheLogin() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());

            Exchange asked = host.request("tools/call", modernCall(null));

            JsonNode result = asked.reply().path("result");
            assertThat(result.path("resultType").asString()).as(asked.body()).isEqualTo("input_required");
            JsonNode request = result.path("inputRequests").path("mcpx-login");
            assertThat(request.path("method").asString()).isEqualTo("elicitation/create");
            assertThat(request.path("params").path("mode").asString()).isEqualTo("url");
            assertThat(request.path("params").has("elicitationId")).as("2026-07-28 has no elicitationId").isFalse();
            String url = request.path("params").path("url").asString();
            assertOnlyTheAuthorizationUrl(url);
            String state = result.path("requestState").asString();
            assertThat(state).isNotEmpty();

            ObjectNode retry = modernCall(state);
            retry.putObject("inputResponses").putObject("mcpx-login").put("action", "accept");
            CompletableFuture<Exchange> retried = CompletableFuture.supplyAsync(() -> {
                try {
                    return host.request("tools/call", retry);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> !retried.isDone());
            openInBrowser(url);

            Exchange answered = retried.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(answered.reply().path("result").path("resultType").asString()).as(answered.body() + serve.stderr())
                    .isEqualTo("complete");
            assertThat(answered.text()).isNotEmpty();
            assertThat(upstream.executions("plain_tool")).isEqualTo(1);
            assertThat(authorizationServer.tokenRequests("authorization_code")).isEqualTo(1);
        }
    }

    @Test
    void aModernHostThatDeclinesIsToldHowElseToLogIn() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());
            JsonNode result = host.request("tools/call", modernCall(null)).reply().path("result");
            ObjectNode retry = modernCall(result.path("requestState").asString());
            retry.putObject("inputResponses").putObject("mcpx-login").put("action", "decline");

            Exchange declined = host.request("tools/call", retry);

            assertThat(declined.errorCode()).as(declined.body()).isEqualTo(-32000);
            assertThat(declined.reply().path("error").path("message").asString()).contains("decline", "mcpx login remote");
            assertThat(upstream.executions("plain_tool")).isZero();
        }
    }

    @Test
    void aLoginTheUserDeniesLeavesTheUpstreamWaitingAndTheNextCallOffersANewOne() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost host = HttpHost.legacy(serve.mcpUri());
            host.initialize(urlElicitation());
            String first = offeredUrl(host.call("remote__plain_tool", Json.object().put("text", "hi")));

            // the authorization server's answer when the user says no: the same redirect, with an error
            URI redirect = redirectOf(first);
            String denied = redirect.toString().replaceFirst("\\?.*", "") + "?error=access_denied&state="
                    + queryValue(redirect, "state");
            HttpResponse<String> page = host.raw(HttpRequest.newBuilder(URI.create(denied)).GET().build());
            assertThat(page.statusCode()).isEqualTo(200);
            await().atMost(WAIT).untilAsserted(() -> assertThat(serve.stderr()).contains("access_denied"));
            assertThat(remote(status(host, serve)).path("state").asString()).isEqualTo("needs-login");

            String second = offeredUrl(host.call("remote__plain_tool", Json.object().put("text", "hi")));
            assertThat(queryValue(URI.create(second), "state")).as("a new flow").isNotEqualTo(queryValue(URI.create(first), "state"));
            openInBrowser(second);
            await().atMost(WAIT).untilAsserted(() -> assertThat(host.request("tools/list", null).body()).contains("remote__plain_tool"));
            Exchange retried = host.call("remote__plain_tool", Json.object().put("text", "hi"));
            assertThat(retried.reply().has("error")).as(retried.body()).isFalse();
            assertThat(authorizationServer.tokenRequests("authorization_code")).isEqualTo(1);
        }
    }

    @Test
    void aModernRetryWhoseLoginWasRefusedIsOfferedANewLogin() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost host = HttpHost.modern(serve.mcpUri());
            JsonNode first = host.request("tools/call", modernCall(null)).reply().path("result");
            String firstUrl = first.path("inputRequests").path("mcpx-login").path("params").path("url").asString();
            ObjectNode retry = modernCall(first.path("requestState").asString());
            retry.putObject("inputResponses").putObject("mcpx-login").put("action", "accept");
            CompletableFuture<Exchange> retried = CompletableFuture.supplyAsync(() -> {
                try {
                    return host.request("tools/call", retry);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            URI redirect = redirectOf(firstUrl);
            host.raw(HttpRequest.newBuilder(URI.create(redirect.toString().replaceFirst("\\?.*", "")
                    + "?error=access_denied&state=" + queryValue(redirect, "state"))).GET().build());

            JsonNode again = retried.get(WAIT.toSeconds(), TimeUnit.SECONDS).reply().path("result");
            assertThat(again.path("resultType").asString()).as(again.toString()).isEqualTo("input_required");
            String secondUrl = again.path("inputRequests").path("mcpx-login").path("params").path("url").asString();
            assertThat(queryValue(URI.create(secondUrl), "state")).as("a new flow")
                    .isNotEqualTo(queryValue(URI.create(firstUrl), "state"));
            assertThat(upstream.executions("plain_tool")).isZero();
        }
    }

    private static String offeredUrl(Exchange refused) {
        assertThat(refused.errorCode()).as(refused.body()).isEqualTo(-32042);
        return refused.reply().path("error").path("data").path("elicitations").path(0).path("url").asString();
    }

    /** Where the authorization server sends the browser back (to mcpx's listener), without going there. */
    private static URI redirectOf(String authorizationUrl) throws Exception {
        try (HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build()) {
            HttpResponse<String> answer = browser.send(HttpRequest.newBuilder(URI.create(authorizationUrl)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode() / 100).as(answer.body()).isEqualTo(3);
            return URI.create(answer.headers().firstValue("Location").orElseThrow());
        }
    }

    private static String queryValue(URI uri, String name) {
        for (String pair : uri.getRawQuery().split("&")) {
            if (pair.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(pair.substring(name.length() + 1), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no " + name + " in " + uri);
    }

    @Test
    void aStdioHostGetsTheUrlAndTheCompleteNotificationOnStdout() throws Exception {
        try (ServeProcess serve = ServeProcess.start(env, "serve", "-c", config.toString())) {
            LineHost host = new LineHost(serve.process().getInputStream(), serve.process().getOutputStream());
            ObjectNode init = Json.object().put("protocolVersion", "2025-11-25");
            init.set("capabilities", urlElicitation());
            init.putObject("clientInfo").put("name", "stdio-test-host").put("version", "1");
            assertThat(host.request("initialize", init).has("result")).isTrue();
            host.notify("notifications/initialized", null);

            JsonNode refused = host.request("tools/call", toolCall());

            assertThat(refused.path("error").path("code").asInt()).as(refused + serve.stderr()).isEqualTo(-32042);
            JsonNode elicitation = refused.path("error").path("data").path("elicitations").path(0);
            openInBrowser(elicitation.path("url").asString());
            JsonNode complete = awaitNotification(host, "notifications/elicitation/complete");
            assertThat(complete.path("params").path("elicitationId").asString())
                    .isEqualTo(elicitation.path("elicitationId").asString());
            JsonNode retried = host.request("tools/call", toolCall());
            assertThat(retried.has("result")).as(retried + serve.stderr()).isTrue();
            assertThat(upstream.executions("plain_tool")).isEqualTo(1);
            host.close();
        }
    }

    @Test
    void anUpstreamWaitingForALoginListsItsLoginToolWhoseCallOffersTheLoginAndThenSaysItIsDone() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost host = HttpHost.legacy(serve.mcpUri());
            host.initialize(urlElicitation());
            Listen listen = Listen.open(host);
            await().atMost(WAIT).untilAsserted(() -> assertThat(host.request("tools/list", null).body())
                    .contains("remote__mcpx_login").doesNotContain("remote__plain_tool"));

            Exchange offered = host.call("remote__mcpx_login", Json.object());
            assertThat(offered.errorCode()).as(offered.body()).isEqualTo(-32042);
            openInBrowser(offeredUrl(offered));
            listen.await("notifications/elicitation/complete");

            Exchange done = host.call("remote__mcpx_login", Json.object());
            assertThat(done.reply().has("error")).as(done.body() + serve.stderr()).isFalse();
            assertThat(done.text()).contains("Logged in to remote");
            String tools = host.request("tools/list", null).body();
            assertThat(tools).contains("remote__plain_tool").doesNotContain("remote__mcpx_login");
            assertThat(upstream.executions("plain_tool")).isZero();
            assertThat(authorizationServer.tokenRequests("authorization_code")).isEqualTo(1);
        }
    }

    @Test
    void theLoginToolTellsAHostWithoutUrlElicitationWhatToRun() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost modern = HttpHost.modern(serve.mcpUri());
            await().atMost(WAIT).untilAsserted(() -> assertThat(modern.request("tools/list", null).body())
                    .contains("remote__mcpx_login"));

            Exchange refused = modern.call("remote__mcpx_login", Json.object());

            assertThat(refused.errorCode()).as(refused.body()).isEqualTo(-32000);
            assertThat(refused.reply().path("error").path("message").asString()).contains("mcpx login remote");
            assertThat(authorizationServer.log()).doesNotContain("/authorize");
        }
    }

    @Test
    void aHostWithoutUrlElicitationIsToldToRunMcpxLogin() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            HttpHost formOnly = HttpHost.legacy(serve.mcpUri());
            ObjectNode form = Json.object();
            form.putObject("elicitation").putObject("form");
            formOnly.initialize(form);
            HttpHost modern = HttpHost.modern(serve.mcpUri());

            Exchange legacyRefused = formOnly.call("remote__plain_tool", Json.object().put("text", "hi"));
            Exchange modernRefused = modern.call("remote__plain_tool", Json.object().put("text", "hi"));

            for (Exchange refused : List.of(legacyRefused, modernRefused)) {
                assertThat(refused.errorCode()).as(refused.body()).isEqualTo(-32000);
                assertThat(refused.reply().path("error").path("message").asString()).contains("mcpx login remote");
            }
            assertThat(authorizationServer.log()).doesNotContain("/authorize");
            assertThat(upstream.executions("plain_tool")).isZero();
        }
    }

    @Test
    void hostsCallingAtOnceShareOneLoginAndEachIsToldItIsDone() throws Exception {
        try (ServeProcess serve = httpGateway()) {
            List<HttpHost> hosts = new ArrayList<>();
            List<Listen> listens = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                HttpHost host = HttpHost.legacy(serve.mcpUri());
                host.initialize(urlElicitation());
                hosts.add(host);
                listens.add(Listen.open(host));
            }

            List<CompletableFuture<Exchange>> calls = hosts.stream().map(host -> CompletableFuture.supplyAsync(() -> {
                try {
                    return host.call("remote__plain_tool", Json.object().put("text", "hi"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            })).toList();
            List<JsonNode> offered = new ArrayList<>();
            for (CompletableFuture<Exchange> call : calls) {
                Exchange refused = call.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(refused.errorCode()).as(refused.body()).isEqualTo(-32042);
                offered.add(refused.reply().path("error").path("data").path("elicitations").path(0));
            }
            assertThat(offered.stream().map(e -> e.path("url").asString()).distinct()).as("one flow, one URL").hasSize(1);

            openInBrowser(offered.getFirst().path("url").asString());

            for (int i = 0; i < hosts.size(); i++) {
                JsonNode complete = listens.get(i).await("notifications/elicitation/complete");
                assertThat(complete.path("params").path("elicitationId").asString())
                        .isEqualTo(offered.get(i).path("elicitationId").asString());
                Exchange retried = hosts.get(i).call("remote__plain_tool", Json.object().put("text", "hi"));
                assertThat(retried.reply().has("error")).as(retried.body()).isFalse();
            }
            assertThat(authorizationServer.tokenRequests("authorization_code")).isEqualTo(1);
            assertThat(upstream.executions("plain_tool")).isEqualTo(3);
        }
    }

    private ServeProcess httpGateway() throws Exception {
        ServeProcess serve = ServeProcess.start(env, "serve", "-c", config.toString(), "--http", "127.0.0.1:0")
                .awaitListening();
        HttpHost probe = HttpHost.modern(serve.mcpUri());
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(remote(status(probe, serve)).path("state").asString()).as(serve::stderr).isEqualTo("needs-login"));
        return serve;
    }

    private static ObjectNode urlElicitation() {
        ObjectNode capabilities = Json.object();
        capabilities.putObject("elicitation").putObject("url");
        return capabilities;
    }

    private static ObjectNode toolCall() {
        ObjectNode params = Json.object().put("name", "remote__plain_tool");
        params.putObject("arguments").put("text", "hi");
        return params;
    }

    private static ObjectNode modernCall(String requestState) {
        ObjectNode params = toolCall();
        params.putObject("_meta").putObject("io.modelcontextprotocol/clientCapabilities").set("elicitation",
                Json.object().set("url", Json.object()));
        if (requestState != null) {
            params.put("requestState", requestState);
        }
        return params;
    }

    /** The authorization server's endpoint with PKCE and state, and nothing of mcpx's own (no token, no secret). */
    private void assertOnlyTheAuthorizationUrl(String url) {
        assertThat(url).startsWith(authorizationServer.issuer().toString())
                .contains("response_type=code", "code_challenge_method=S256", "state=", "redirect_uri=http%3A%2F%2F127.0.0.1")
                .doesNotContain("access_token", "refresh_token", "client_secret");
    }

    /** What a browser does with the URL: follows every redirect, the last one to mcpx's loopback listener. */
    private static void openInBrowser(String url) throws Exception {
        try (HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.ALWAYS)
                .connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> page = browser.send(HttpRequest.newBuilder(URI.create(url)).timeout(WAIT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).as(page.uri() + ": " + page.body()).isEqualTo(200);
            assertThat(page.body()).contains("the login to remote is done");
        }
    }

    private static JsonNode awaitNotification(LineHost host, String method) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode next = host.nextNotification(Duration.ofSeconds(1));
            if (next != null && method.equals(next.path("method").asString())) {
                return next;
            }
        }
        throw new AssertionError("no " + method + " within " + WAIT);
    }

    /** A legacy host's GET listen stream, every message it carried kept. */
    private record Listen(List<JsonNode> messages) {

        static Listen open(HttpHost host) throws Exception {
            HttpRequest get = HttpRequest.newBuilder(host.endpoint()).header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", host.sessionId()).header("MCP-Protocol-Version", "2025-11-25").GET().build();
            HttpResponse<Stream<String>> response = host.client().sendAsync(get, HttpResponse.BodyHandlers.ofLines())
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            Listen listen = new Listen(new CopyOnWriteArrayList<>());
            Thread.ofVirtual().start(() -> response.body().forEach(line -> {
                if (line.startsWith("data:") && !line.substring(5).isBlank()) {
                    listen.messages.add(Json.parse(line.substring(5).trim()));
                }
            }));
            return listen;
        }

        /** The first {@code method} notification on the stream, once one came. */
        JsonNode await(String method) {
            return org.awaitility.Awaitility.await().atMost(WAIT).until(() -> messages.stream()
                    .filter(message -> method.equals(message.path("method").asString())).findFirst().orElse(null),
                    java.util.Objects::nonNull);
        }
    }

    private static JsonNode remote(JsonNode status) {
        for (JsonNode entry : status.path("upstreams")) {
            if (entry.path("name").asString().equals("remote")) {
                return entry;
            }
        }
        throw new AssertionError("no upstream remote in " + status);
    }

    private static JsonNode status(HttpHost host, ServeProcess serve) throws Exception {
        return Json.parse(host.raw(HttpRequest.newBuilder(serve.statusUri()).GET().build()).body());
    }
}
