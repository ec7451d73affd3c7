package dev.mcpx.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The register citations in docs/compare/register/*.md. A citation is a register id in code ticks
 * followed by the status the doc claims for it, e.g. {@code `streamable-http-client-reinit-on-404` (covered)};
 * a test named in code ticks as {@code `dev.mcpx.client.SessionRecoveryTest#method`} is a test citation.
 * The check holds both to the register and to this build's test results, so the prose cannot drift.
 */
final class CompareDocs {

    /** A register id cited with a status, and the doc line it is on. */
    record Citation(Path doc, int line, String id, String status) {

        @Override
        public String toString() {
            return doc.getFileName() + ":" + line + " `" + id + "` (" + status + ")";
        }
    }

    /** A compare-register row heading or table cell such as TR-29, and the doc line it is on. */
    record CompareRow(Path doc, int line, String id, String text) {
    }

    private static final Pattern CITATION = Pattern.compile("`([a-z0-9]+(?:-[a-z0-9]+)+)`\\s*\\((covered|gap|not-applicable)\\)");
    private static final Pattern TEST = Pattern.compile("`((?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*#[a-zA-Z_][A-Za-z0-9_]*)`");
    private static final Pattern ROW = Pattern.compile("^\\|\\s*((?:TR|PM)-\\d{2})\\s*\\|(.*)$");

    private final List<Path> docs;
    private final List<Citation> citations = new ArrayList<>();
    private final List<Citation> tests = new ArrayList<>();
    private final List<CompareRow> rows = new ArrayList<>();

    private CompareDocs(List<Path> docs) {
        this.docs = docs;
    }

    static CompareDocs read(Path folder) throws IOException {
        List<Path> docs;
        try (Stream<Path> files = Files.list(folder)) {
            docs = files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        CompareDocs compare = new CompareDocs(docs);
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                Matcher citation = CITATION.matcher(line);
                while (citation.find()) {
                    compare.citations.add(new Citation(doc, i + 1, citation.group(1), citation.group(2)));
                }
                Matcher test = TEST.matcher(line);
                while (test.find()) {
                    compare.tests.add(new Citation(doc, i + 1, test.group(1), ""));
                }
                Matcher row = ROW.matcher(line);
                if (row.matches()) {
                    compare.rows.add(new CompareRow(doc, i + 1, row.group(1), row.group(2)));
                }
            }
        }
        return compare;
    }

    /**
     * What the docs say that the register or the build does not bear out: a citation of a row that
     * does not exist or has another status, a named test that does not hold, a page that cites no
     * row, a compare row id used twice on a page, and TR-29 / PM-06 not citing the recovery rows.
     */
    List<String> problems(Map<String, Requirement> register, EvidenceJudge judge) {
        List<String> problems = new ArrayList<>();
        for (Citation citation : citations) {
            Requirement row = register.get(citation.id());
            if (row == null) {
                problems.add(citation + ": no such register row");
            } else if (row.status() != null && !row.status().text().equals(citation.status())) {
                problems.add(citation + ": the register says " + row.status().text());
            }
        }
        for (Citation test : tests) {
            String problem = judge.testProblem(TestRef.parse(test.id()));
            if (problem != null) {
                problems.add(test.doc().getFileName() + ":" + test.line() + ": " + problem);
            }
        }
        for (Path doc : docs) {
            if (citations.stream().noneMatch(c -> c.doc().equals(doc))) {
                problems.add(doc.getFileName() + ": cites no register row");
            }
            Set<String> seen = new HashSet<>();
            rows.stream().filter(r -> r.doc().equals(doc) && !seen.add(r.id()))
                    .forEach(r -> problems.add(doc.getFileName() + ":" + r.line() + ": " + r.id() + " appears twice"));
        }
        requireRow("transports.md", "TR-29", "streamable-http-client-reinit-on-404", problems);
        requireRow("process-model.md", "PM-06", "streamable-http-client-reissue-broken-request", problems);
        return problems;
    }

    private void requireRow(String doc, String rowId, String registerId, List<String> problems) {
        boolean found = rows.stream().anyMatch(r -> r.doc().getFileName().toString().equals(doc)
                && r.id().equals(rowId) && r.text().contains("`" + registerId + "`"));
        if (!found) {
            problems.add(doc + ": no table row " + rowId + " citing `" + registerId + "`");
        }
    }

    List<Path> docs() {
        return docs;
    }

    List<Citation> citations() {
        return citations;
    }

    List<Citation> testCitations() {
        return tests;
    }

    List<CompareRow> rows() {
        return rows;
    }
}
