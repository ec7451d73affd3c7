package dev.mcpx.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What the other modules' surefire (and failsafe) XML reports say about each test method:
 * a testcase element without failure, error or skipped children passed. A parameterized or
 * repeated method has one testcase per invocation ({@code method(String)[1]}); all must pass.
 */
final class SurefireReports {

    enum Outcome { PASSED, FAILED, ERROR, SKIPPED }

    /** One invocation of a test method, and the report file it came from (for its age). */
    record Run(String invocation, Outcome outcome, Path report, Instant written) {
    }

    private final Map<String, List<Run>> runsByMethod = new HashMap<>();
    private final List<String> unreadable = new ArrayList<>();
    private int files;

    static SurefireReports read(Path root) {
        SurefireReports reports = new SurefireReports();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                if (module.getFileName().toString().equals("conformance")) {
                    continue;
                }
                reports.readFolder(module.resolve("target/surefire-reports"));
                reports.readFolder(module.resolve("target/failsafe-reports"));
            }
        } catch (IOException e) {
            reports.unreadable.add(root + ": " + e.getMessage());
        }
        return reports;
    }

    private void readFolder(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return;
        }
        try (Stream<Path> paths = Files.list(folder)) {
            for (Path report : paths.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList()) {
                readReport(report);
            }
        }
    }

    private void readReport(Path report) {
        Document document;
        Instant written;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            document = factory.newDocumentBuilder().parse(report.toFile());
            written = Files.getLastModifiedTime(report).toInstant();
        } catch (Exception e) {
            unreadable.add(report + ": " + e.getMessage());
            return;
        }
        files++;
        String suite = document.getDocumentElement().getAttribute("name");
        NodeList cases = document.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element testcase = (Element) cases.item(i);
            // jqwik reports a simple class name; the suite (named after the class) is then the reliable one.
            String className = testcase.getAttribute("classname");
            if (!className.contains(".")) {
                className = suite;
            }
            String invocation = testcase.getAttribute("name");
            String method = methodOf(invocation);
            runsByMethod.computeIfAbsent(className + "#" + method, k -> new ArrayList<>())
                    .add(new Run(invocation, outcome(testcase), report, written));
        }
    }

    /** {@code twoCalls(String)[1]} and {@code twoCalls()} both belong to method {@code twoCalls}. */
    static String methodOf(String invocation) {
        int end = invocation.length();
        for (char stop : new char[] {'(', '['}) {
            int at = invocation.indexOf(stop);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return invocation.substring(0, end).strip();
    }

    private static Outcome outcome(Element testcase) {
        NodeList children = testcase.getChildNodes();
        Outcome outcome = Outcome.PASSED;
        for (int i = 0; i < children.getLength(); i++) {
            Node child = children.item(i);
            // flakyFailure/rerunFailure sit beside a final outcome and do not decide it.
            switch (child.getNodeName()) {
                case "failure" -> outcome = Outcome.FAILED;
                case "error" -> outcome = Outcome.ERROR;
                case "skipped" -> outcome = outcome == Outcome.PASSED ? Outcome.SKIPPED : outcome;
                default -> {
                }
            }
        }
        return outcome;
    }

    List<Run> runs(TestRef test) {
        return runsByMethod.getOrDefault(test.className() + "#" + test.method(), List.of());
    }

    int files() {
        return files;
    }

    List<String> unreadable() {
        return unreadable;
    }
}
