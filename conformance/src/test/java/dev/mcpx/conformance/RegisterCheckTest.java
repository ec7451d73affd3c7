package dev.mcpx.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpx.conformance.Requirement.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The conformance register's check. It runs after the other modules' tests (this module depends
 * on them) and fails when a covered row's evidence does not hold in this build, when a sentence is
 * not the spec's, or when docs/compare/register says something the register does not. It prints
 * the row counts and the open gaps.
 */
class RegisterCheckTest {

    private static CheckContext context;
    private static Register register;
    private static EvidenceJudge judge;
    private static SurefireReports reports;
    private static ConformanceResults results;

    @BeforeAll
    static void read() {
        context = CheckContext.fromSystemProperties();
        register = Register.load(context.register());
        reports = SurefireReports.read(context.root());
        results = ConformanceResults.read(context.results(), context.codeChanged());
        judge = new EvidenceJudge(context, new TestSources(context.root()), reports, results);
    }

    @Test
    void theRegisterIsWellFormed() {
        assertThat(register.rows()).as("rows in " + context.register()).isNotEmpty();
        assertThat(register.problems()).as(problems("the register is malformed", register.problems())).isEmpty();
    }

    @Test
    void everySentenceIsQuotedFromItsSpecPage() {
        SpecText spec = new SpecText(context.specRoot());
        if (!spec.available()) {
            System.out.println("register: spec folder " + context.specRoot() + " not found; sentences not checked (set -Dmcpx.spec)");
            return;
        }
        List<String> problems = new ArrayList<>();
        for (Requirement row : register.rows()) {
            if (row.spec() != null && row.sentence() != null) {
                String problem = spec.problem(row);
                if (problem != null) {
                    problems.add(row.id() + ": " + problem);
                }
            }
        }
        assertThat(problems).as(problems("sentences that are not on their spec page", problems)).isEmpty();
    }

    @Test
    void everyMustOnTheScopedPagesHasARow() {
        SpecText spec = new SpecText(context.specRoot());
        if (!spec.available()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        for (String page : register.scope()) {
            spec.unclaimedKeywords(page, register.rows()).forEach(excerpt -> problems.add(page + ": " + excerpt));
        }
        assertThat(problems).as(problems("requirement keywords on the scoped pages that no row quotes", problems)).isEmpty();
    }

    @Test
    void coveredRowsCiteTestsThatExistAndPassedInThisBuild() {
        assertThat(reports.unreadable()).as("unreadable surefire reports").isEmpty();
        List<String> problems = new ArrayList<>();
        for (Requirement row : covered()) {
            for (TestRef test : row.tests()) {
                String problem = judge.testProblem(test);
                if (problem != null) {
                    problems.add(row.id() + ": " + problem);
                }
            }
        }
        assertThat(problems).as(problems("covered rows whose tests do not hold", problems)).isEmpty();
    }

    @Test
    void coveredRowsCiteScenariosThatPassedInTheLatestConformanceRun() {
        assertThat(results.unreadable()).as("unreadable conformance results").isEmpty();
        List<String> problems = new ArrayList<>();
        for (Requirement row : covered()) {
            for (ScenarioRef scenario : row.scenarios()) {
                String problem = judge.scenarioProblem(row, scenario);
                if (problem != null) {
                    problems.add(row.id() + ": " + problem);
                }
            }
        }
        assertThat(problems).as(problems("covered rows whose conformance scenarios do not hold", problems)).isEmpty();
    }

    @Test
    void theCompareDocsAgreeWithTheRegister() throws IOException {
        List<String> problems = CompareDocs.read(context.compareDocs()).problems(register.byId(), judge);
        assertThat(problems).as(problems("docs/compare/register disagrees with the register", problems)).isEmpty();
    }

    private static List<Requirement> covered() {
        return register.rows().stream().filter(r -> r.status() == Status.COVERED).toList();
    }

    private static String problems(String title, List<String> problems) {
        return title + " (" + problems.size() + "):\n  " + String.join("\n  ", problems) + "\n";
    }

    @AfterAll
    static void printSummary() {
        if (register == null) {
            return;
        }
        Map<String, Long> byStatus = register.rows().stream().filter(r -> r.status() != null)
                .collect(Collectors.groupingBy(r -> r.status().text(), TreeMap::new, Collectors.counting()));
        Map<String, Map<String, Long>> byRole = register.rows().stream().filter(r -> r.status() != null && r.role() != null)
                .collect(Collectors.groupingBy(Requirement::role, TreeMap::new,
                        Collectors.groupingBy(r -> r.status().text(), TreeMap::new, Collectors.counting())));
        List<String> gaps = register.rows().stream().filter(r -> r.status() == Status.GAP).map(Requirement::id).toList();
        StringBuilder out = new StringBuilder();
        out.append("\n== conformance register: ").append(register.rows().size()).append(" rows ").append(byStatus).append('\n');
        byRole.forEach((role, counts) -> out.append("   ").append(role).append(": ").append(counts).append('\n'));
        out.append("   surefire reports read: ").append(reports.files())
                .append(results.isEmpty() ? "; no current conformance results under " + context.results() : "").append('\n');
        out.append("== open gaps (").append(gaps.size()).append("):\n");
        gaps.forEach(id -> out.append("   ").append(id).append('\n'));
        if (!judge.unverified().isEmpty()) {
            out.append("== scenario evidence not verified (no current conformance results; the row stands on its tests;"
                    + " conformance/check-register verifies them after conformance/run):\n");
            judge.unverified().forEach(u -> out.append("   ").append(u).append('\n'));
        }
        if (!judge.pending().isEmpty()) {
            out.append("== covered rows awaiting a conformance run (verified-by: conformance-run; conformance/check-register"
                    + " --require-scenarios fails them until their scenarios pass):\n");
            judge.pending().forEach(p -> out.append("   ").append(p).append('\n'));
        }
        System.out.print(out);
    }
}
