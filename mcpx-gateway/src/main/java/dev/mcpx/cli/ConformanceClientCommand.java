package dev.mcpx.cli;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpxVersion;
import dev.mcpx.client.ServerDescription;
import dev.mcpx.transport.UpstreamEndpoint;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code mcpx conformance-client URL}: the client the official conformance suite drives. It
 * speaks the revision the suite asks for with the real {@link McpClient}; the scenario only
 * picks what a user's program would do with it. Exit 0 when every step worked, 1 otherwise.
 */
@Command(name = "conformance-client",
        description = "The client under test for the official MCP conformance suite. Reads MCP_CONFORMANCE_SCENARIO, "
                + "MCP_CONFORMANCE_PROTOCOL_VERSION and MCP_CONFORMANCE_CONTEXT from the environment.")
final class ConformanceClientCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "URL", description = "The scenario server's MCP endpoint, used as given.")
    String url;

    @Override
    public Integer call() {
        Logging.quietUnlessAsked();
        ConformanceEnvironment env = ConformanceEnvironment.from(System.getenv());
        UpstreamEndpoint.Http endpoint = endpoint();
        McpClient.Builder builder = McpClient.builder(env.scenario().startsWith("auth/")
                        ? endpoint.withAuthorization(ConformanceAuthorization.client(env, endpoint.url())) : endpoint)
                .name(env.scenario())
                .clientInfo("mcpx-conformance-client", McpxVersion.current())
                .protocolVersion(env.version())
                .capabilities(ConformanceClientRequests.CAPABILITIES)
                .serverRequests(new ConformanceClientRequests())
                .requestTimeout(Duration.ofSeconds(20));
        try (McpClient client = builder.build().connect()) {
            ServerDescription server = client.server();
            System.out.println("connected: " + server.era() + " " + server.protocolVersion() + " via " + client.transportKind().label());
            ScenarioActions actions = new ScenarioActions(client, System.out);
            run(env, actions);
            List<String> failures = actions.failures();
            failures.forEach(failure -> System.err.println("mcpx conformance-client: " + failure));
            return failures.isEmpty() ? Main.OK : Main.MCP_ERROR;
        }
    }

    private static void run(ConformanceEnvironment env, ScenarioActions actions) {
        switch (env.scenario()) {
            case "json-schema-2020-12-preservation" -> actions.echoSchema("json_schema_2020_12_tool", "json_schema_echo");
            // the mock lists a tool but serves no calls: a program that only browses the catalogue
            case "json-schema-ref-no-deref" -> actions.listTools();
            default -> actions.useEverything(env.toolCalls());
        }
    }

    private UpstreamEndpoint.Http endpoint() {
        try {
            return new UpstreamEndpoint.Http(URI.create(url), Map.of(), UpstreamEndpoint.HttpKind.STREAMABLE);
        } catch (IllegalArgumentException e) {
            throw new UsageException("not a URL: " + url);
        }
    }
}
