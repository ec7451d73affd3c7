package dev.mcpx.bench;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An npm stdio-to-HTTP proxy in front of the stdio test upstream, on Node 22, with its usual flags. */
record NodeProxy(String name, ChildProcess process, URI url) implements AutoCloseable {

    // Readiness is an open port, not an initialize: each initialize makes these spawn a child.

    /** mcp-proxy's Streamable HTTP server (stateful sessions, its default), one child per session. */
    static NodeProxy mcpProxy(BenchEnv env) throws InterruptedException {
        int port = McpxGateway.freePort();
        List<String> command = new ArrayList<>(List.of(env.node().toString(), env.mcpProxy().toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(port), "--server", "stream", "--"));
        command.addAll(env.stdioUpstream());
        return start(env, "mcp-proxy", command, port);
    }

    /**
     * supergateway stdio to Streamable HTTP with {@code --stateful}: its stateless default spawns a
     * new child per POST, which would measure process start-up, not proxying.
     */
    static NodeProxy supergateway(BenchEnv env) throws InterruptedException {
        int port = McpxGateway.freePort();
        List<String> command = List.of(env.node().toString(), env.supergateway().toString(),
                "--stdio", env.stdioUpstreamLine(), "--outputTransport", "streamableHttp", "--stateful",
                "--port", Integer.toString(port), "--logLevel", "none");
        return start(env, "supergateway", command, port);
    }

    private static NodeProxy start(BenchEnv env, String name, List<String> command, int port)
            throws InterruptedException {
        ChildProcess process = ChildProcess.start(name, command, Map.of(), env.logDir());
        URI url = URI.create("http://127.0.0.1:" + port + "/mcp");
        try {
            HttpProbe.awaitPort(url, Duration.ofSeconds(60), process);
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
