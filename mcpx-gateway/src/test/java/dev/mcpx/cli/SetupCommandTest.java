package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code mcpx setup HOST} on copies of each host's documented config format (src/test/resources/hosts),
 * always with {@code --config-path} and {@code -c} so no real user file is read or written.
 */
class SetupCommandTest {

    private static final JsonMapper JSONC = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA).build();

    @TempDir
    Path dir;

    private Path hostFile;
    private Path mcpxConfig;

    private byte[] copy(String host) throws IOException {
        hostFile = dir.resolve(host + "-config.json");
        mcpxConfig = dir.resolve("mcpx").resolve("mcpx.json");
        try (InputStream in = SetupCommandTest.class.getResourceAsStream("/hosts/" + host + ".json")) {
            Files.write(hostFile, in.readAllBytes());
        }
        return Files.readAllBytes(hostFile);
    }

    private CliRun setup(String host, String... more) {
        List<String> args = new ArrayList<>(List.of("setup", host, "--config-path", hostFile.toString(), "-c", mcpxConfig.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static JsonNode read(Path file) throws IOException {
        return JSONC.readTree(Files.readString(file));
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-desktop", "claude-code", "cursor", "vscode", "windsurf"})
    void setupPointsTheHostAtMcpxAndUndoRestoresBothFilesByteForByte(String host) throws IOException {
        byte[] original = copy(host);
        String key = host.equals("vscode") ? "servers" : "mcpServers";
        List<String> hostNames = new ArrayList<>(read(hostFile).get(key).propertyNames());

        CliRun run = setup(host);

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        JsonNode after = read(hostFile).get(key);
        JsonNode entry = after.get("mcpx");
        List<String> args = new ArrayList<>();
        entry.get("args").forEach(a -> args.add(a.asString()));
        assertThat(args.subList(args.size() - 3, args.size())).containsExactly("serve", "-c", mcpxConfig.toAbsolutePath().toString());
        JsonNode moved = read(mcpxConfig).get("mcpServers");
        for (String name : hostNames) {
            assertThat(moved.has(name) || after.has(name)).as(name + " is in one of the two files").isTrue();
            assertThat(moved.has(name) && after.has(name)).as(name + " is not in both").isFalse();
        }
        assertThat(Files.readAllBytes(hostFile.resolveSibling(hostFile.getFileName() + ".mcpx-backup"))).isEqualTo(original);

        CliRun undo = setup(host, "--undo");

        assertThat(undo.exitCode()).as(undo.err()).isEqualTo(0);
        assertThat(Files.readAllBytes(hostFile)).isEqualTo(original);
        assertThat(mcpxConfig).doesNotExist();
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(hostFile.getFileName().toString(), "mcpx");
        }
    }

    @Test
    void claudeDesktopEntriesMoveWithTheirEnvAndDisabledFlag() throws IOException {
        copy("claude-desktop");

        CliRun run = setup("claude-desktop");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.err()).contains("moved filesystem").contains("moved github").contains("moved old-notes");
        JsonNode servers = read(mcpxConfig).get("mcpServers");
        assertThat(servers.get("github").get("env").get("GITHUB_PERSONAL_ACCESS_TOKEN").asString()).isEqualTo("ghp_exampleexampleexample");
        assertThat(servers.get("old-notes").get("disabled").asBoolean()).isTrue();
        assertThat(read(hostFile).get("mcpServers").propertyNames()).containsExactly("mcpx");
        assertThat(read(hostFile).get("globalShortcut").asString()).isEqualTo("Alt+Space");
        assertThat(Files.getPosixFilePermissions(mcpxConfig)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void claudeCodeKeepsItsProjectScopedServersAndTheRestOfItsFile() throws IOException {
        copy("claude-code");

        assertThat(setup("claude-code").exitCode()).isEqualTo(0);

        JsonNode after = read(hostFile);
        assertThat(after.get("projects").get("/home/ada/work/shop").get("mcpServers").has("shop-db")).isTrue();
        assertThat(after.get("numStartups").asInt()).isEqualTo(42);
        assertThat(after.get("mcpServers").get("mcpx").get("type").asString()).isEqualTo("stdio");
        JsonNode moved = read(mcpxConfig).get("mcpServers");
        assertThat(moved.get("notion").get("headers").get("Authorization").asString()).isEqualTo("Bearer ${NOTION_TOKEN:-none}");
        assertThat(moved.get("linear").get("type").asString()).isEqualTo("sse");
        assertThat(moved.has("shop-db")).isFalse();
    }

    @Test
    void vscodeKeepsItsCommentsAndInputsAndLeavesServersOnlyVsCodeCanResolve() throws IOException {
        copy("vscode");

        CliRun run = setup("vscode");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        String after = Files.readString(hostFile);
        assertThat(after).contains("// Servers VS Code starts for Copilot agent mode.").contains("\"id\": \"perplexity-key\"")
                .contains("\t\t\t\"args\": [\"-y\", \"server-perplexity-ask\"],\n");
        assertThat(read(hostFile).get("servers").propertyNames()).containsExactly("perplexity", "mcpx");
        assertThat(run.err()).contains("left perplexity in " + hostFile + ": it uses \"${input:perplexity-key}\", which only VS Code can resolve");
        JsonNode moved = read(mcpxConfig).get("mcpServers");
        assertThat(moved.get("memory").get("env").get("MEMORY_FILE_PATH").asString()).isEqualTo("${HOME}/memory.jsonl");
        assertThat(moved.get("github").get("headers").get("X-MCP-Toolsets").asString()).isEqualTo("repos,issues");
        assertThat(read(hostFile).get("servers").get("mcpx").get("type").asString()).isEqualTo("stdio");
    }

    @Test
    void cursorVariablesAreTranslatedAndWorkspaceOnesStay() throws IOException {
        copy("cursor");

        CliRun run = setup("cursor");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        JsonNode moved = read(mcpxConfig).get("mcpServers");
        assertThat(moved.get("sentry").get("headers").get("Authorization").asString()).isEqualTo("Bearer ${SENTRY_TOKEN}");
        assertThat(moved.get("brave-search").get("env").get("CACHE_DIR").asString()).isEqualTo("${HOME}/.cache/brave");
        assertThat(moved.get("brave-search").get("disabled").asBoolean()).isTrue();
        assertThat(read(hostFile).get("mcpServers").propertyNames()).containsExactly("local-tools", "mcpx");
        assertThat(run.err()).contains("left local-tools").contains("${workspaceFolder}");
    }

    @Test
    void windsurfServerUrlBecomesUrlAndItsOtherKeysStay() throws IOException {
        copy("windsurf");

        assertThat(setup("windsurf").exitCode()).isEqualTo(0);

        JsonNode moved = read(mcpxConfig).get("mcpServers");
        assertThat(moved.get("github").get("url").asString()).isEqualTo("https://api.githubcopilot.com/mcp/");
        assertThat(moved.get("github").has("serverUrl")).isFalse();
        assertThat(moved.get("github").get("headers").get("Authorization").asString()).startsWith("Bearer ghp_");
        assertThat(moved.get("git").get("disabled").asBoolean()).isTrue();
        assertThat(moved.get("puppeteer").get("disabledTools").get(0).asString()).isEqualTo("puppeteer_evaluate");
    }

    @Test
    void aNameMcpxAlreadyUsesGetsADeterministicNewNameAndUndoRestoresTheMcpxConfig() throws IOException {
        copy("claude-desktop");
        Files.createDirectories(mcpxConfig.getParent());
        String mine = "{\n  \"mcpServers\": {\n    \"github\": {\"url\": \"https://example.com/mcp\"},\n"
                + "    \"filesystem\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", "
                + "\"/Users/ada/Desktop\", \"/Users/ada/Downloads\"]\n    }\n  }\n}\n";
        Files.writeString(mcpxConfig, mine);

        CliRun run = setup("claude-desktop");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.err()).contains("moved github as github-claude-desktop").contains("moved filesystem: " + mcpxConfig + " already has it");
        JsonNode servers = read(mcpxConfig).get("mcpServers");
        assertThat(servers.propertyNames()).containsExactly("github", "filesystem", "github-claude-desktop", "old-notes");
        assertThat(servers.get("github").get("url").asString()).isEqualTo("https://example.com/mcp");

        assertThat(setup("claude-desktop", "--undo").exitCode()).isEqualTo(0);
        assertThat(Files.readString(mcpxConfig)).isEqualTo(mine);
    }

    @Test
    void anEntryThatRunsMcpxIsNotMoved() throws IOException {
        hostFile = dir.resolve("claude_desktop_config.json");
        mcpxConfig = dir.resolve("mcpx.json");
        Files.writeString(hostFile, "{\"mcpServers\": {\"gateway\": {\"command\": \"/opt/mcpx/bin/mcpx\", \"args\": [\"serve\"]},"
                + " \"jar\": {\"command\": \"java\", \"args\": [\"-jar\", \"/opt/mcpx/mcpx.jar\", \"serve\"]},"
                + " \"time\": {\"command\": \"uvx\", \"args\": [\"mcp-server-time\"]}}}\n");

        CliRun run = setup("claude-desktop");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.err()).contains("left gateway").contains("left jar").contains("runs mcpx itself");
        assertThat(read(mcpxConfig).get("mcpServers").propertyNames()).containsExactly("time");
        assertThat(read(hostFile).get("mcpServers").propertyNames()).containsExactly("gateway", "jar", "mcpx");
    }

    @Test
    void dryRunShowsTheDiffAndWritesNothing() throws IOException {
        byte[] original = copy("windsurf");

        CliRun run = setup("windsurf", "--dry-run");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.out()).contains("--- " + hostFile).contains("-    \"github\": {").contains("+    \"mcpx\": {")
                .contains("--- /dev/null").contains("+++ " + mcpxConfig).contains("+      \"serverUrl\"".replace("serverUrl", "url"));
        assertThat(run.err()).contains("(dry run) moved github");
        assertThat(Files.readAllBytes(hostFile)).isEqualTo(original);
        assertThat(mcpxConfig).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(hostFile);
        }
    }

    @Test
    void theHostFilesPermissionsAreKeptThroughSetupAndUndo() throws IOException {
        byte[] original = copy("cursor");
        Files.setPosixFilePermissions(hostFile, PosixFilePermissions.fromString("rw-r-----"));

        assertThat(setup("cursor").exitCode()).isEqualTo(0);
        assertThat(Files.getPosixFilePermissions(hostFile)).isEqualTo(PosixFilePermissions.fromString("rw-r-----"));

        assertThat(setup("cursor", "--undo").exitCode()).isEqualTo(0);
        assertThat(Files.getPosixFilePermissions(hostFile)).isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
        assertThat(Files.readAllBytes(hostFile)).isEqualTo(original);
    }

    @Test
    void undoAfterTheHostRewroteItsFileRestoresTheServersAndKeepsTheHostsChanges() throws IOException {
        copy("claude-code");
        assertThat(setup("claude-code").exitCode()).isEqualTo(0);
        Files.writeString(hostFile, Files.readString(hostFile).replace("\"numStartups\": 42", "\"numStartups\": 43"));

        CliRun undo = setup("claude-code", "--undo");

        assertThat(undo.exitCode()).as(undo.err()).isEqualTo(0);
        assertThat(undo.err()).contains("changed since setup").contains(".mcpx-backup");
        JsonNode after = read(hostFile);
        assertThat(after.get("numStartups").asInt()).isEqualTo(43);
        assertThat(after.get("mcpServers").propertyNames()).containsExactly("context7", "notion", "linear");
        assertThat(after.get("mcpServers")).isEqualTo(read(hostFile.resolveSibling(hostFile.getFileName() + ".mcpx-backup")).get("mcpServers"));
    }

    @Test
    void undoAfterTheMcpxConfigWasEditedTakesOutOnlyWhatSetupAdded() throws IOException {
        copy("cursor");
        assertThat(setup("cursor").exitCode()).isEqualTo(0);
        var config = (tools.jackson.databind.node.ObjectNode) read(mcpxConfig);
        ((tools.jackson.databind.node.ObjectNode) config.get("mcpServers")).putObject("mine").put("url", "https://example.com/mcp");
        ((tools.jackson.databind.node.ObjectNode) config.get("mcpServers").get("playwright")).put("prefix", "pw");
        Files.writeString(mcpxConfig, Json.write(config));

        CliRun undo = setup("cursor", "--undo");

        assertThat(undo.exitCode()).as(undo.err()).isEqualTo(0);
        assertThat(undo.err()).contains("left playwright in " + mcpxConfig + ": it was changed since setup");
        assertThat(read(mcpxConfig).get("mcpServers").propertyNames()).containsExactly("playwright", "mine");
    }

    @Test
    void aSecondSetupIsRefusedUntilUndo() throws IOException {
        copy("windsurf");
        assertThat(setup("windsurf").exitCode()).isEqualTo(0);
        byte[] afterFirst = Files.readAllBytes(hostFile);

        CliRun again = setup("windsurf");

        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains(hostFile.toString()).contains("already run").contains("--undo windsurf");
        assertThat(Files.readAllBytes(hostFile)).isEqualTo(afterFirst);
    }

    @Test
    void aHostFileThatIsNotJsonExitsTwoNamingItAndWritesNothing() throws IOException {
        hostFile = dir.resolve("mcp.json");
        mcpxConfig = dir.resolve("mcpx.json");
        Files.writeString(hostFile, "{\"mcpServers\": {\"a\": ");

        CliRun run = setup("cursor");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(hostFile.toString()).contains("is not valid JSON");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(hostFile);
        }
    }

    @Test
    void unknownHostAndUndoWithoutSetupExitTwo() throws IOException {
        copy("cursor");
        assertThat(CliRun.of("setup", "emacs").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("setup", "emacs").err()).contains("unknown host \"emacs\"").contains("claude-desktop");

        CliRun undo = setup("cursor", "--undo");

        assertThat(undo.exitCode()).isEqualTo(2);
        assertThat(undo.err()).contains(hostFile.toString()).contains("no mcpx setup to undo");
    }

    @Test
    void aHostWithNoConfigFileGetsOneAndUndoRemovesIt() throws IOException {
        hostFile = dir.resolve("Claude").resolve("claude_desktop_config.json");
        mcpxConfig = dir.resolve("mcpx.json");

        assertThat(setup("claude-desktop").exitCode()).isEqualTo(0);
        assertThat(read(hostFile).get("mcpServers").propertyNames()).containsExactly("mcpx");

        assertThat(setup("claude-desktop", "--undo").exitCode()).isEqualTo(0);
        assertThat(hostFile).doesNotExist();
        assertThat(mcpxConfig).doesNotExist();
    }

    @Test
    void aClaudeCodeFileWithoutServersGetsTheKeyAndUndoRestoresItByteForByte() throws IOException {
        hostFile = dir.resolve(".claude.json");
        mcpxConfig = dir.resolve("mcpx.json");
        String original = "{\n  \"numStartups\": 3,\n  \"theme\": \"dark\"\n}\n";
        Files.writeString(hostFile, original);

        assertThat(setup("claude-code").exitCode()).isEqualTo(0);

        String after = Files.readString(hostFile);
        assertThat(after).startsWith("{\n  \"mcpServers\": {\n    \"mcpx\": {\n      \"type\": \"stdio\",")
                .endsWith("},\n  \"numStartups\": 3,\n  \"theme\": \"dark\"\n}\n");
        assertThat(read(hostFile).get("theme").asString()).isEqualTo("dark");

        assertThat(setup("claude-code", "--undo").exitCode()).isEqualTo(0);
        assertThat(Files.readString(hostFile)).isEqualTo(original);
    }

    @Test
    void aSymlinkedHostFileStaysALinkAndItsTargetIsWrittenAndRestored() throws IOException {
        byte[] original = copy("cursor");
        Path target = dir.resolve("dotfiles-mcp.json");
        Files.move(hostFile, target);
        Files.createSymbolicLink(hostFile, target);

        assertThat(setup("cursor").exitCode()).isEqualTo(0);
        assertThat(Files.isSymbolicLink(hostFile)).isTrue();
        assertThat(read(target).get("mcpServers").has("mcpx")).isTrue();

        assertThat(setup("cursor", "--undo").exitCode()).isEqualTo(0);
        assertThat(Files.isSymbolicLink(hostFile)).isTrue();
        assertThat(Files.readAllBytes(target)).isEqualTo(original);
    }

    @Test
    void anOldMcpxEntryIsReplacedAndSaidSo() throws IOException {
        hostFile = dir.resolve("mcp_config.json");
        mcpxConfig = dir.resolve("mcpx.json");
        Files.writeString(hostFile, "{\"mcpServers\": {\"mcpx\": {\"command\": \"/old/mcpx/bin/mcpx\", \"args\": [\"serve\"]}}}");

        CliRun run = setup("windsurf");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.err()).contains("left mcpx").contains("replaced by the new \"mcpx\" entry, the backup keeps it");
        assertThat(read(hostFile).get("mcpServers").get("mcpx").get("command").asString()).isNotEqualTo("/old/mcpx/bin/mcpx");
        assertThat(read(mcpxConfig).get("mcpServers").isEmpty()).isTrue();
    }

    @Test
    void aFileWithWindowsLineEndsKeepsThemAndRoundTrips() throws IOException {
        byte[] original = new String(copy("windsurf"), java.nio.charset.StandardCharsets.UTF_8).replace("\n", "\r\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.write(hostFile, original);

        assertThat(setup("windsurf").exitCode()).isEqualTo(0);

        assertThat(Files.readString(hostFile).replace("\r\n", "")).doesNotContain("\n");
        assertThat(setup("windsurf", "--undo").exitCode()).isEqualTo(0);
        assertThat(Files.readAllBytes(hostFile)).isEqualTo(original);
    }
}
