package dev.mcpx.examples;

import dev.mcpx.client.Cancellation;
import dev.mcpx.client.ClientEvent;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.Reissue;
import dev.mcpx.client.RequestOptions;
import dev.mcpx.client.ServerDescription;
import dev.mcpx.protocol.AuthorizationRequiredException;
import dev.mcpx.protocol.HttpStatusException;
import dev.mcpx.protocol.Json;
import dev.mcpx.protocol.McpErrorException;
import dev.mcpx.protocol.McpException;
import dev.mcpx.protocol.NeedsLoginException;
import dev.mcpx.protocol.RequestCancelledException;
import dev.mcpx.protocol.RequestTimeoutException;
import dev.mcpx.protocol.SessionExpiredException;
import dev.mcpx.protocol.StreamLostException;
import dev.mcpx.protocol.ToolDescriptor;
import dev.mcpx.protocol.UpstreamUnavailableException;
import dev.mcpx.transport.UpstreamEndpoint;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The code docs/library.md shows: each region between {@code tag::NAME[]} and {@code end::NAME[]}
 * is one of its code blocks (LibraryDocTest keeps them equal), and LibraryExamplesTest runs
 * every method against the testkit's fake upstreams.
 */
public final class LibraryExamples {

    private LibraryExamples() {
    }

    /** Connects to an HTTP server, in whichever era it speaks. */
    public static McpClient connect(String url) {
        // tag::connect[]
        McpClient client = McpClient.builder(UpstreamEndpoint.Http.of(url))
                .name("docs")                           // names this upstream in logs and errors
                .clientInfo("my-app", "1.0")
                .requestTimeout(Duration.ofSeconds(30)) // the deadline of a request without its own
                .build()
                .connect();                             // 2026-07-28 if it speaks it, else 2025-11-25
        ServerDescription server = client.server();
        System.out.println(server.era() + " " + server.protocolVersion() + " " + server.serverInfo());
        // end::connect[]
        return client;
    }

    /** Starts a server as a child process and talks to it over its stdin and stdout. */
    public static McpClient connectStdio(String command, String... args) {
        // tag::connect-stdio[]
        McpClient client = McpClient.builder(UpstreamEndpoint.Stdio.of(command, args))
                .name("local")
                .build()
                .connect();                             // starts the process; close() stops it
        // end::connect-stdio[]
        return client;
    }

    /** Lists the tools, then calls one. */
    public static JsonNode listAndCall(McpClient client) {
        // tag::list-call[]
        for (ToolDescriptor tool : client.listTools()) {  // every page, cached until list_changed
            System.out.println(tool.name() + (Boolean.TRUE.equals(tool.readOnlyHint()) ? " (read-only)" : ""));
        }
        ObjectNode arguments = Json.object().put("text", "hello");
        JsonNode result = client.callTool("read_only_tool", arguments, RequestOptions.defaults());
        if (result.path("isError").asBoolean(false)) {     // the tool ran and failed: a result, no exception
            System.out.println("tool error: " + result.path("content"));
        }
        // end::list-call[]
        return result;
    }

    /** One call with its own deadline, progress and a way to cancel it. */
    public static JsonNode callWithOptions(McpClient client, Cancellation cancel, Consumer<ObjectNode> progress) {
        // tag::options[]
        RequestOptions options = RequestOptions.defaults()
                .withTimeout(Duration.ofSeconds(5))   // this call's deadline, recoveries included
                .withProgress(progress)               // each notifications/progress's params
                .withCancellation(cancel);            // cancel.cancel("why") from any thread
        JsonNode result = client.callTool("idempotent_tool", Json.object(), options);
        // end::options[]
        return result;
    }

    /** Subscriptions: list changes and resource updates arrive as events. */
    public static McpClient subscribe(String url, Consumer<String> seen) {
        // tag::subscriptions[]
        McpClient client = McpClient.builder(UpstreamEndpoint.Http.of(url))
                .listenForChanges(true)       // tools, prompts and resources list_changed (off by default)
                .events(event -> {
                    switch (event) {
                        case ClientEvent.ListChanged changed -> seen.accept("changed " + changed.kind());
                        case ClientEvent.ResourceUpdated updated -> seen.accept("updated " + updated.params().path("uri").asString());
                        case ClientEvent.Reinitialized again -> seen.accept("new session " + again.generation());
                        case ClientEvent.EraChanged era -> seen.accept("now " + era.to() + " " + era.version());
                        case ClientEvent.Log log -> seen.accept("log " + log.params().path("data"));
                        case ClientEvent.Closed closed -> seen.accept("closed: " + closed.cause().getMessage());
                    }
                })
                .build()
                .connect();
        client.subscribeResource("file:///docs/readme.md");  // returns once the server took it
        // end::subscriptions[]
        return client;
    }

    /** The recovery settings: which tools may be sent again, and how a repeating fault backs off. */
    public static McpClient recovering(String url) {
        // tag::recovery[]
        McpClient client = McpClient.builder(UpstreamEndpoint.Http.of(url))
                // a modern response stream that breaks is re-issued once when the tool's annotations
                // say it is safe (read-only, or idempotent and not destructive); these override them
                .reissue(Map.of("destructive_tool", Reissue.NEVER, "plain_tool", Reissue.ALWAYS))
                // a fault that repeats (every stream breaks, sessions die at once) refuses requests
                // at once, probing again after 1 s, doubling to 30 s
                .conditionBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30))
                .build()
                .connect();
        // end::recovery[]
        return client;
    }

    /** What each exception means, as a caller would tell them apart. */
    public static String explain(McpClient client, String tool) {
        // tag::exceptions[]
        try {
            return client.callTool(tool, Json.object(), RequestOptions.defaults()).toString();
        } catch (McpException e) {
            return switch (e) {
                // the server answered with a JSON-RPC error (unknown tool, invalid params, ...)
                case McpErrorException error -> "refused: " + error.error().code() + " " + error.error().message();
                // no answer within the deadline; the server was sent notifications/cancelled
                case RequestTimeoutException timeout -> "timed out";
                // your Cancellation fired
                case RequestCancelledException cancelled -> "cancelled";
                // the response stream broke and the call was not safe to send again: it may have run
                case StreamLostException lost -> "may have run: " + lost.getMessage();
                // a legacy session died, and again right after the one re-initialize
                case SessionExpiredException expired -> "session lost";
                // the process exited, the connection was refused, or the client is closed or degraded
                case UpstreamUnavailableException down -> "unavailable: " + down.getMessage();
                // an HTTP status that is no MCP answer (a proxy's 502, a 401 without OAuth)
                case HttpStatusException status -> "HTTP " + status.status();
                // a 401/403 the configured OAuth client could not renew credentials for
                case AuthorizationRequiredException refused -> "not authorized: " + refused.getMessage();
                // an OAuth login is needed that this client may not ask for now (run the login flow)
                case NeedsLoginException login -> "needs login: " + login.getMessage();
            };
        }
        // end::exceptions[]
    }
}
