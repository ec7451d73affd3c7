package dev.mcpx.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.testkit.NodeTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * The official conformance suite's server scenarios against the fixture upstream, both
 * revisions. Needs the Node tools of {@code .tools/setup}; fails at once without them, saying so.
 */
class ConformanceSuiteTest {

    private static ConformanceUpstream upstream;

    @TempDir
    Path results;

    @BeforeAll
    static void start() {
        upstream = ConformanceUpstream.start();
    }

    @AfterAll
    static void stop() {
        upstream.close();
    }

    @ParameterizedTest(name = "--requirements {0}")
    @CsvSource({"2025-11-25, 33", "2026-07-28, 50"})
    void everyScenarioPasses(String revision, int scenarios) throws Exception {
        NodeTools tools = nodeTools();
        Path log = results.resolve("conformance.log");
        Process suite = new ProcessBuilder(tools.conformance("server", "--url", upstream.url().toString(),
                "--requirements", revision, "-o", results.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean finished = suite.waitFor(5, TimeUnit.MINUTES);
        if (!finished) {
            suite.destroyForcibly();
        }
        String output = Files.readString(log);

        List<String> problems = problems();
        assertThat(problems).as(output).isEmpty();
        assertThat(finished).as(output).isTrue();
        assertThat(suite.exitValue()).as(output).isZero();
        assertThat(checkFiles()).as(output).hasSize(scenarios);
    }

    private static NodeTools nodeTools() {
        return NodeTools.require();
    }

    /** Every check that is neither SUCCESS, INFO nor skipped by the suite itself, as "scenario: id status". */
    private List<String> problems() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path checks : checkFiles()) {
            for (JsonNode check : McpHttp.JSON.readTree(checks.toFile())) {
                String status = check.get("status").asString();
                if (!status.equals("SUCCESS") && !status.equals("INFO") && !suiteSkipped(check)) {
                    problems.add(checks.getParent().getFileName() + ": " + check.get("id").asString() + " " + status
                            + " " + check.path("errorMessage").asString(""));
                }
            }
        }
        return problems;
    }

    /** tasks-status-notifications is skipped by the suite itself until its harness is rewritten. */
    private static boolean suiteSkipped(JsonNode check) {
        return check.get("status").asString().equals("SKIPPED")
                && check.get("id").asString().equals("tasks-status-notifications");
    }

    private List<Path> checkFiles() throws IOException {
        try (Stream<Path> files = Files.walk(results)) {
            return files.filter(file -> file.getFileName().toString().equals("checks.json")).toList();
        }
    }
}
