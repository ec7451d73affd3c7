package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.testkit.stdio.StdioFakeServer;
import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** Exit codes and messages of the command line when something is wrong. */
class CliErrorsTest {

    @TempDir
    Path dir;

    private Path config(String text) throws IOException {
        Path file = dir.resolve("mcpx.json");
        Files.writeString(file, text);
        return file;
    }

    private Path fakeConfig() throws IOException {
        List<String> command = StdioFakeServer.command("--era", "legacy");
        ObjectNode root = Json.object();
        ObjectNode fake = root.putObject("mcpServers").putObject("fake");
        fake.put("command", command.getFirst());
        command.subList(1, command.size()).forEach(fake.withArray("args")::add);
        return config(Json.write(root));
    }

    @Test
    void aMissingConfigExitsTwoNamingTheFile() {
        CliRun run = CliRun.of("tools", "-c", dir.resolve("absent.json").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("absent.json");
    }

    @Test
    void aBadLimitExitsTwoNamingTheFileAndTheKey() throws IOException {
        CliRun run = CliRun.of("serve", "-c", config("{\"mcpx\": {\"limits\": {\"maxHeaderBytes\": 10}}, \"mcpServers\": {}}").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mcpx.json").contains("mcpx.limits.maxHeaderBytes");
    }

    @Test
    void aConfigThatIsNotJsonExitsTwo() throws IOException {
        CliRun run = CliRun.of("tools", "-c", config("{ not json").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mcpx.json");
    }

    @Test
    void aBadEntryExitsTwoNamingTheEntry() throws IOException {
        CliRun run = CliRun.of("call", "-c", config("{\"mcpServers\":{\"broken\":{\"args\":[]}}}").toString(), "broken", "x");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("broken");
    }

    @Test
    void anUnknownServerExitsTwoListingTheConfiguredOnes() throws IOException {
        CliRun run = CliRun.of("call", "-c", fakeConfig().toString(), "nope", "echo");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("nope").contains("fake");
    }

    @Test
    void argumentsThatAreNotAnObjectExitTwo() throws IOException {
        CliRun run = CliRun.of("call", "-c", fakeConfig().toString(), "fake", "echo", "[1,2]");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("JSON object");
    }

    @Test
    void aToolErrorExitsOne() throws IOException {
        CliRun run = CliRun.of("call", "-c", fakeConfig().toString(), "fake", "no-such-tool");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("Unknown tool");
    }

    @Test
    void aSuccessfulCallPrintsJsonAndExitsZero() throws IOException {
        CliRun run = CliRun.of("call", "-c", fakeConfig().toString(), "fake", "echo", "{\"text\":\"yo\"}");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Json.parse(run.out()).path("content").path(0).path("text").asString()).isEqualTo("Echo: yo");
    }

    @Test
    void anUnknownProfileOnStdioExitsTwoListingTheConfiguredOnes() throws IOException {
        ObjectNode root = (ObjectNode) Json.parse(Files.readString(fakeConfig()));
        root.putObject("mcpx").putObject("profiles").putObject("review").putArray("servers").add("fake");
        CliRun run = CliRun.of("serve", "--stdio", "--profile", "nope", "-c", config(Json.write(root)).toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--profile nope").contains("review");
    }

    @Test
    void aProfileNamingAServerNotConfiguredExitsTwo() throws IOException {
        CliRun run = CliRun.of("tools", "-c", config("{\"mcpx\": {\"profiles\": {\"review\": {\"servers\": [\"github\"]}}},"
                + " \"mcpServers\": {}}").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mcpx.profiles.review.servers").contains("github");
    }

    @Test
    void aTokenBoundToAnUnknownProfileExitsTwo() throws IOException {
        CliRun run = CliRun.of("tools", "-c", config("{\"mcpx\": {\"tokens\": {\"alice\": {\"token\": \"s\", "
                + "\"profile\": \"review\"}}}, \"mcpServers\": {}}").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mcpx.tokens.alice.profile").contains("review");
    }

    @Test
    void withNoConfigAnywhereTheBuiltInDefaultStillAnswers() {
        CliRun run = CliRun.of("tools");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("mcpx__about");
    }
}
