package dev.mcpx.conformance;

import dev.mcpx.conformance.SurefireReports.Outcome;
import dev.mcpx.conformance.SurefireReports.Run;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Decides whether one cited test or scenario proves anything in this build, and says why not. */
final class EvidenceJudge {

    /** Maven's build timestamp has whole seconds; a report written in the same second is current. */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(2);

    private final CheckContext context;
    private final TestSources sources;
    private final SurefireReports reports;
    private final ConformanceResults results;
    private final List<String> unverified = new ArrayList<>();
    private final List<String> pending = new ArrayList<>();

    EvidenceJudge(CheckContext context, TestSources sources, SurefireReports reports, ConformanceResults results) {
        this.context = context;
        this.sources = sources;
        this.reports = reports;
        this.results = results;
    }

    /** Null when the test exists and every invocation of it passed in this build; otherwise why not. */
    String testProblem(TestRef test) {
        String missing = sources.missing(test);
        if (missing != null) {
            return test + " does not exist: " + missing;
        }
        List<Run> runs = reports.runs(test);
        if (runs.isEmpty()) {
            return test + " did not run in this build: no surefire report under */target/surefire-reports names it";
        }
        for (Run run : runs) {
            if (run.outcome() != Outcome.PASSED) {
                return test + " did not pass: " + run.invocation() + " " + run.outcome().name().toLowerCase()
                        + " (" + run.report() + ")";
            }
            Instant start = context.buildStart();
            if (start != null && !context.acceptOlderReports() && run.written().plus(CLOCK_SLACK).isBefore(start)) {
                return test + " passed only in an earlier build: " + run.report() + " was written " + run.written()
                        + ", this build started " + start + " (run the whole reactor: ./mvnw verify)";
            }
        }
        return null;
    }

    /**
     * Null when the scenario passed in the latest conformance run, or when that run never happened
     * and the row has tests to stand on (the scenario is then listed as unverified); otherwise why not.
     */
    String scenarioProblem(Requirement row, ScenarioRef scenario) {
        if (!results.ranLeg(scenario.side(), scenario.revision())) {
            String leg = results.folder().resolve(scenario.sideName() + "-" + scenario.revision()).toString();
            String why = results.staleLeg(scenario)
                    ? "the results in " + leg + " predate the last change to mcpx's code (" + results.codeChanged() + ")"
                    : "no conformance results in " + leg;
            if (context.requireScenarios()) {
                return scenario + " is not verified: " + why + ". Every leg must run before the strict check"
                        + " (conformance/run client auth server, then conformance/check-register --require-scenarios).";
            }
            if (!row.tests().isEmpty()) {
                unverified.add(row.id() + ": " + scenario + " (" + why + ")");
                return null;
            }
            if (row.awaitsRun()) {
                pending.add(row.id() + ": " + scenario + " (" + why + ")");
                return null;
            }
            return scenario + " cannot be verified and is this row's only kind of evidence: " + why
                    + ". Run conformance/run first (it writes results/conformance/), then conformance/check-register;"
                    + " or mark the row verified-by: conformance-run (see conformance/README.md).";
        }
        ConformanceResults.Outcome outcome = results.outcome(scenario);
        if (outcome == null) {
            return scenario + " is not in the latest conformance run (" + results.folder() + ")";
        }
        if (scenario.check() != null) {
            if (!outcome.statusesById().containsKey(scenario.check())) {
                return scenario + ": the latest run of the scenario has no check " + scenario.check() + " (" + outcome.file() + ")";
            }
            return outcome.holds(scenario.check()) ? null : scenario + " did not hold in the latest conformance run: "
                    + scenario.check() + " " + outcome.statusesById().get(scenario.check()) + " (" + outcome.file() + ")";
        }
        if (!outcome.passed()) {
            String why = outcome.notHolding().isEmpty() ? "nothing but " + ConformanceResults.WIRE_SCHEMA_CHECK
                    + " succeeded" : "checks that failed, warned or were only skipped: " + outcome.notHolding();
            return scenario + " did not pass in the latest conformance run, " + why + " (" + outcome.file() + ")";
        }
        return null;
    }

    /** Rows marked verified-by: conformance-run whose scenarios have no current results yet. */
    List<String> pending() {
        return pending;
    }

    List<String> unverified() {
        return unverified;
    }
}
