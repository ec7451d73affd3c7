package dev.mcpx.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.conformance.SurefireReports.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check's own parts, each shown to fail when it should: a check that cannot fail proves nothing. */
class CheckerSelfTest {

    @TempDir
    Path dir;

    private Path write(String relative, String text) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static final String ROW = """
              - id: some-row
                revision: 2025-11-25
                spec: 2025-11-25/page.md
                section: S
                level: MUST
                sentence: "The client MUST do it."
                role: client
            """;

    @Test
    void malformedRowsAreReportedByIdAndField() throws IOException {
        Path file = write("register.yaml", "scope: []\nrequirements:\n"
                + ROW + "    status: covered\n"
                + ROW + "    status: done\n    colour: red\n"
                + ROW.replace("some-row", "Bad_Id") + "    status: not-applicable\n"
                + ROW.replace("some-row", "other-row") + "    status: gap\n    evidence:\n      tests: [SessionRecoveryTest, a.b.CTest#m]\n"
                + ROW.replace("some-row", "third-row") + "    status: covered\n    verified-by: conformance-run\n"
                + "    evidence:\n      tests: [a.b.CTest#m]\n");

        Register register = Register.load(file);

        assertThat(register.problems()).anyMatch(p -> p.contains("some-row: a covered row needs `evidence`"))
                .anyMatch(p -> p.contains("some-row: duplicate id"))
                .anyMatch(p -> p.contains("`status` must be covered, gap or not-applicable"))
                .anyMatch(p -> p.contains("unknown field `colour`"))
                .anyMatch(p -> p.contains("Bad_Id: `id` must be kebab-case"))
                .anyMatch(p -> p.contains("Bad_Id: a not-applicable row needs a `reason`"))
                .anyMatch(p -> p.contains("other-row: only a covered row cites evidence"))
                .anyMatch(p -> p.contains("other-row: test `SessionRecoveryTest` is not package.Class#method"))
                .anyMatch(p -> p.contains("third-row: `verified-by: conformance-run` belongs only on a covered row whose evidence is scenarios alone"));
    }

    @Test
    void aSentenceMustBeOnItsPageAndEveryKeywordNeedsARow() throws IOException {
        write("spec/2025-11-25/page.md", """
                The client **MUST** do it, with `care`.
                - The server **MUST NOT** do
                  [that](/x) either.
                Such headers are **REQUIRED**.
                """);
        SpecText spec = new SpecText(dir.resolve("spec"));

        assertThat(spec.problem(row("The client MUST do it, with care."))).isNull();
        assertThat(spec.problem(row("The client MUST do it ... MUST NOT do that either."))).isNull();
        assertThat(spec.problem(row("The client MUST do it twice."))).contains("sentence not found");
        assertThat(spec.problem(row("MUST NOT do that ... The client MUST do it"))).as("pieces in order").contains("not found");
        assertThat(spec.unclaimedKeywords("2025-11-25/page.md", List.of(row("The client MUST do it"))))
                .hasSize(2).anyMatch(e -> e.contains("MUST NOT do")).anyMatch(e -> e.contains("REQUIRED"));
    }

    private static Requirement row(String sentence) {
        return new Requirement("r", "2025-11-25", "2025-11-25/page.md", "S", "MUST", sentence, "client",
                Requirement.Status.GAP, List.of(), List.of(), null, null, null, false);
    }

    @Test
    void theDocsMustCiteExistingRowsWithTheirStatusAndTestsThatHold() throws IOException {
        write("m/src/test/java/a/b/CTest.java", "class CTest { void fine() {} }");
        write("m/target/surefire-reports/TEST-a.b.CTest.xml",
                "<testsuite name=\"a.b.CTest\"><testcase name=\"fine\" classname=\"a.b.CTest\"/></testsuite>");
        write("docs/transports.md", """
                | TR-29 | restart | `streamable-http-client-reinit-on-404` (covered) |
                | TR-30 | x | `streamable-http-client-reinit-on-404` (gap), `no-such-row` (covered) |
                | TR-30 | twice | proven by `a.b.CTest#fine` and `a.b.CTest#gone` |
                """);
        write("docs/process-model.md", "| PM-06 | broken streams | nothing cited here |\n");
        Requirement reinit = new Requirement("streamable-http-client-reinit-on-404", "2025-11-25", "p", "S", "MUST", "s",
                "client", Requirement.Status.COVERED, List.of(), List.of(), null, null, null, false);

        List<String> problems = CompareDocs.read(dir.resolve("docs"))
                .problems(java.util.Map.of(reinit.id(), reinit), judge(SurefireReports.read(dir), null));

        assertThat(problems).anyMatch(p -> p.contains("`streamable-http-client-reinit-on-404` (gap): the register says covered"))
                .anyMatch(p -> p.contains("`no-such-row` (covered): no such register row"))
                .anyMatch(p -> p.contains("a.b.CTest#gone does not exist"))
                .anyMatch(p -> p.contains("TR-30 appears twice"))
                .anyMatch(p -> p.contains("process-model.md: cites no register row"))
                .anyMatch(p -> p.contains("no table row PM-06 citing `streamable-http-client-reissue-broken-request`"))
                .noneMatch(p -> p.contains("TR-29"))
                .noneMatch(p -> p.contains("a.b.CTest#fine"));
    }

    @Test
    void everyInvocationOfACitedTestMustPass() throws IOException {
        write("mcpx-core/target/surefire-reports/TEST-a.b.CTest.xml", """
                <testsuite name="a.b.CTest">
                  <testcase name="fine" classname="a.b.CTest"/>
                  <testcase name="param(String)[1]" classname="a.b.CTest"/>
                  <testcase name="param(String)[2]" classname="a.b.CTest"><failure message="no"/></testcase>
                  <testcase name="ignored" classname="a.b.CTest"><skipped/></testcase>
                  <testcase name="property" classname="CTest"/>
                </testsuite>
                """);
        write("mcpx-core/src/test/java/a/b/CTest.java",
                "class CTest { void fine() {} void param(String s) {} void ignored() {} void property() {} }");
        SurefireReports reports = SurefireReports.read(dir);

        assertThat(reports.runs(TestRef.parse("a.b.CTest#param"))).extracting(SurefireReports.Run::outcome)
                .containsExactly(Outcome.PASSED, Outcome.FAILED);
        EvidenceJudge judge = judge(reports, null);
        assertThat(judge.testProblem(TestRef.parse("a.b.CTest#fine"))).isNull();
        assertThat(judge.testProblem(TestRef.parse("a.b.CTest#property"))).as("jqwik's simple class name").isNull();
        assertThat(judge.testProblem(TestRef.parse("a.b.CTest#param"))).contains("did not pass: param(String)[2] failed");
        assertThat(judge.testProblem(TestRef.parse("a.b.CTest#ignored"))).contains("skipped");
        assertThat(judge.testProblem(TestRef.parse("a.b.CTest#gone"))).contains("does not exist: no method gone");
        assertThat(judge.testProblem(TestRef.parse("a.b.NoTest#x"))).contains("no test class a.b.NoTest");
    }

    @Test
    void aReportFromAnEarlierBuildIsNotEvidence() throws IOException {
        Path report = write("m/target/surefire-reports/TEST-a.b.CTest.xml",
                "<testsuite name=\"a.b.CTest\"><testcase name=\"fine\" classname=\"a.b.CTest\"/></testsuite>");
        write("m/src/test/java/a/b/CTest.java", "class CTest { void fine() {} }");
        Files.setLastModifiedTime(report, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));

        EvidenceJudge judge = judge(SurefireReports.read(dir), Instant.parse("2026-01-01T01:00:00Z"));

        assertThat(judge.testProblem(TestRef.parse("a.b.CTest#fine"))).contains("passed only in an earlier build");
    }

    @Test
    void scenariosPassOnlyWithSubstanceAndTheNewestRunWins() throws IOException {
        String results = "results/conformance/";
        write(results + "client-2025-11-25/initialize-2026-11-29T10-00-00-000Z/checks.json",
                "[{\"id\":\"x\",\"status\":\"FAILURE\"}]");
        write(results + "client-2025-11-25/initialize-2026-11-29T11-00-00-000Z/checks.json",
                "[{\"id\":\"x\",\"status\":\"SUCCESS\"},{\"id\":\"wire-schema-valid\",\"status\":\"SUCCESS\"}]");
        write(results + "client-2025-11-25/sse-retry-2026-11-29T11-00-00-000Z/checks.json",
                "[{\"id\":\"x\",\"status\":\"SUCCESS\"},{\"id\":\"y\",\"status\":\"SKIPPED\"}]");
        write(results + "client-2026-07-28/request-metadata-2026-11-29T11-00-00-000Z/checks.json",
                "[{\"id\":\"header\",\"status\":\"SUCCESS\"},{\"id\":\"header\",\"status\":\"SKIPPED\"},"
                + "{\"id\":\"retry\",\"status\":\"WARNING\"},{\"id\":\"log\",\"status\":\"INFO\"}]");
        write(results + "server-2025-11-25/server-ping-2026-11-29T11-00-00-000Z/checks.json",
                "[{\"id\":\"wire-schema-valid\",\"status\":\"SUCCESS\"}]");
        ConformanceResults read = ConformanceResults.read(dir.resolve(results), null);
        EvidenceJudge judge = judge(SurefireReports.read(dir), null, read);

        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:initialize@2025-11-25"))).isNull();
        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:sse-retry@2025-11-25")))
                .contains("only skipped: [y {SKIPPED=1}]");
        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:request-metadata@2026-07-28")))
                .as("a warning anywhere fails the whole scenario").contains("retry {WARNING=1}").doesNotContain("header");
        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:request-metadata@2026-07-28#header")))
                .as("a check skipped for one method but successful for another holds").isNull();
        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:request-metadata@2026-07-28#retry")))
                .contains("did not hold").contains("WARNING");
        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:request-metadata@2026-07-28#absent")))
                .contains("has no check absent");
        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("server:ping@2025-11-25")))
                .contains("nothing but wire-schema-valid succeeded");
        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:tools_call@2025-11-25")))
                .contains("not in the latest conformance run");
    }

    @Test
    void withoutAnyRunAScenarioOnlyRowFailsAndAMixedRowStandsOnItsTests() throws IOException {
        EvidenceJudge judge = judge(SurefireReports.read(dir), null);
        ScenarioRef scenario = ScenarioRef.parse("client:sse-retry@2025-11-25");

        assertThat(judge.scenarioProblem(scenarioRow(), scenario)).contains("Run conformance/run first");
        Requirement mixed = new Requirement("mixed", "2025-11-25", "p", "S", "MUST", "s", "client",
                Requirement.Status.COVERED, List.of(TestRef.parse("a.b.CTest#fine")), List.of(scenario), null, null, null, false);
        assertThat(judge.scenarioProblem(mixed, scenario)).isNull();
        assertThat(judge.unverified()).singleElement().asString().startsWith("mixed: client:sse-retry@2025-11-25");
    }

    @Test
    void resultsOlderThanTheLastCodeChangeAreNotEvidence() throws IOException {
        Path checks = write("results/conformance/client-2025-11-25/sse-retry-2026-11-29T10-00-00-000Z/checks.json",
                "[{\"id\":\"x\",\"status\":\"SUCCESS\"}]");
        Files.setLastModifiedTime(checks, FileTime.from(Instant.parse("2026-01-01T00:00:00Z")));
        ConformanceResults stale = ConformanceResults.read(dir.resolve("results/conformance"), Instant.parse("2026-01-02T00:00:00Z"));
        EvidenceJudge judge = judge(SurefireReports.read(dir), null, stale);

        assertThat(judge.scenarioProblem(scenarioRow(), ScenarioRef.parse("client:sse-retry@2025-11-25")))
                .contains("predate the last change to mcpx's code").contains("Run conformance/run first");
        ConformanceResults current = ConformanceResults.read(dir.resolve("results/conformance"), Instant.parse("2025-12-31T00:00:00Z"));
        assertThat(judge(SurefireReports.read(dir), null, current).scenarioProblem(scenarioRow(),
                ScenarioRef.parse("client:sse-retry@2025-11-25"))).isNull();
    }

    private static Requirement scenarioRow() {
        return scenarioRow(false);
    }

    private static Requirement scenarioRow(boolean awaitsRun) {
        return new Requirement("only-scenarios", "2025-11-25", "p", "S", "MUST", "s", "client",
                Requirement.Status.COVERED, List.of(), List.of(ScenarioRef.parse("client:sse-retry@2025-11-25")), null, null, null,
                awaitsRun);
    }

    @Test
    void aRowMarkedToAwaitTheRunWaitsUntilTheStrictCheck() throws IOException {
        ScenarioRef scenario = ScenarioRef.parse("client:sse-retry@2025-11-25");
        EvidenceJudge lenient = judge(SurefireReports.read(dir), null);
        assertThat(lenient.scenarioProblem(scenarioRow(true), scenario)).isNull();
        assertThat(lenient.pending()).singleElement().asString().startsWith("only-scenarios: client:sse-retry@2025-11-25");

        CheckContext strict = new CheckContext(dir, dir.resolve("register.yaml"), dir.resolve("spec"),
                dir.resolve("results/conformance"), dir.resolve("docs"), null, false, true);
        EvidenceJudge judge = new EvidenceJudge(strict, new TestSources(dir), SurefireReports.read(dir),
                ConformanceResults.read(dir.resolve("results/conformance"), null));
        assertThat(judge.scenarioProblem(scenarioRow(true), scenario)).contains("Every leg must run before the strict check");
    }

    private EvidenceJudge judge(SurefireReports reports, Instant buildStart) {
        return judge(reports, buildStart, ConformanceResults.read(dir.resolve("results/conformance"), null));
    }

    private EvidenceJudge judge(SurefireReports reports, Instant buildStart, ConformanceResults results) {
        CheckContext context = new CheckContext(dir, dir.resolve("register.yaml"), dir.resolve("spec"),
                dir.resolve("results/conformance"), dir.resolve("docs"), buildStart, false, false);
        return new EvidenceJudge(context, new TestSources(dir), reports, results);
    }
}
