package dev.mcpx.bench;

import dev.mcpx.testkit.NodePortReport;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An npm stdio-to-HTTP proxy in front of the stdio test upstream, on Node 22, with its usual flags. */
record NodeProxy(String name, ChildProcess process, URI url) implements AutoCloseable {

    // Readiness is the listening line, not an initialize: each initialize makes these spawn a child.

    /** mcp-proxy's Streamable HTTP server (stateful sessions, its default), one child per session. */
    static NodeProxy mcpProxy(BenchEnv env) throws InterruptedException {
        List<String> command = node(env);
        command.addAll(List.of(env.mcpProxy().toString(),
                "--host", "127.0.0.1", "--port", "0", "--server", "stream", "--"));
        command.addAll(env.stdioUpstream());
        return start(env, "mcp-proxy", command);
    }

    /**
     * supergateway stdio to Streamable HTTP with {@code --stateful}: its stateless default spawns a
     * new child per POST, which would measure process start-up, not proxying.
     */
    static NodeProxy supergateway(BenchEnv env) throws InterruptedException {
        List<String> command = node(env);
        command.addAll(List.of(env.supergateway().toString(),
                "--stdio", env.stdioUpstreamLine(), "--outputTransport", "streamableHttp", "--stateful",
                "--port", "0", "--logLevel", "none"));
        return start(env, "supergateway", command);
    }

    /** Node with the preloaded script that says which port a server bound to port 0 got. */
    private static List<String> node(BenchEnv env) {
        List<String> command = new ArrayList<>(List.of(env.node().toString()));
        command.addAll(NodePortReport.nodeArgs());
        return command;
    }

    private static NodeProxy start(BenchEnv env, String name, List<String> command) throws InterruptedException {
        ChildProcess process = ChildProcess.start(name, command, Map.of(), env.logDir(),
                line -> NodePortReport.port(line).stream().mapToObj(Integer::toString).findFirst());
        try {
            URI url = URI.create("http://127.0.0.1:" + process.awaitListening(Duration.ofSeconds(60)) + "/mcp");
            return new NodeProxy(name, process, url);
        } catch (RuntimeException | InterruptedException e) {
            process.close();
            throw e;
        }
    }

    @Override
    public void close() {
        process.close();
    }
}
