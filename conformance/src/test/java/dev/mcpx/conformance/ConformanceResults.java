package dev.mcpx.conformance;

import dev.mcpx.conformance.ScenarioRef.Side;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The latest conformance run, as conformance/run leaves it:
 * {@code results/conformance/{client,server}-REVISION/[server-]<scenario>-<timestamp>/checks.json},
 * each file an array of {@code {id, status}} checks. When a scenario ran more than once, the newest
 * timestamp wins.
 *
 * <p>A scenario counts as passed only when nothing in it failed, warned or was skipped, and at least
 * one check other than the suite's own {@code wire-schema-valid} succeeded: a client that does nothing
 * "passes" some scenarios with every check skipped, and that proves nothing.
 */
final class ConformanceResults {

    static final String WIRE_SCHEMA_CHECK = "wire-schema-valid";
    private static final Pattern LEG = Pattern.compile("(client|server)-(\\d{4}-\\d{2}-\\d{2})");
    private static final Pattern STAMP = Pattern.compile("-(\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z)$");

    /** One scenario's newest run: counts per check status, and where it was read. */
    record Outcome(Map<String, Integer> counts, int substantiveSuccesses, String stamp, Path file) {

        boolean passed() {
            return count("FAILURE") == 0 && count("WARNING") == 0 && count("SKIPPED") == 0 && substantiveSuccesses > 0;
        }

        int count(String status) {
            return counts.getOrDefault(status, 0);
        }

        String describe() {
            return "%d passed, %d failed, %d warnings, %d skipped (%s)".formatted(count("SUCCESS"), count("FAILURE"),
                    count("WARNING"), count("SKIPPED"), file);
        }
    }

    private final Path folder;
    private final Map<String, Outcome> latest = new HashMap<>();
    private final List<String> unreadable = new ArrayList<>();

    private ConformanceResults(Path folder) {
        this.folder = folder;
    }

    static ConformanceResults read(Path folder) {
        ConformanceResults results = new ConformanceResults(folder);
        if (Files.isDirectory(folder)) {
            try (Stream<Path> legs = Files.list(folder)) {
                for (Path leg : legs.filter(Files::isDirectory).sorted().toList()) {
                    Matcher m = LEG.matcher(leg.getFileName().toString());
                    if (m.matches()) {
                        results.readLeg(leg, m.group(1), m.group(2));
                    }
                }
            } catch (IOException e) {
                results.unreadable.add(folder + ": " + e.getMessage());
            }
        }
        return results;
    }

    private void readLeg(Path leg, String side, String revision) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(leg)) {
            files = walk.filter(p -> p.getFileName().toString().equals("checks.json")).sorted().toList();
        }
        for (Path file : files) {
            String run = leg.relativize(file.getParent()).toString().replace('\\', '/');
            Matcher stamp = STAMP.matcher(run);
            String scenario = stamp.find() ? run.substring(0, stamp.start()) : run;
            if (side.equals("server") && scenario.startsWith("server-")) {
                scenario = scenario.substring("server-".length());
            }
            String when = stamp.reset().find() ? stamp.group(1) : "";
            String key = side + ":" + scenario + "@" + revision;
            Outcome seen = latest.get(key);
            if (seen != null && seen.stamp().compareTo(when) > 0) {
                continue;
            }
            Outcome outcome = outcome(file, when);
            if (outcome != null) {
                latest.put(key, outcome);
            }
        }
    }

    private Outcome outcome(Path file, String stamp) {
        JsonNode checks;
        try {
            checks = JsonMapper.builder().build().readTree(Files.readString(file));
        } catch (Exception e) {
            unreadable.add(file + ": " + e.getMessage());
            return null;
        }
        Map<String, Integer> counts = new HashMap<>();
        int substantive = 0;
        for (JsonNode check : checks) {
            String status = check.path("status").asString("");
            counts.merge(status, 1, Integer::sum);
            if (status.equals("SUCCESS") && !check.path("id").asString("").equals(WIRE_SCHEMA_CHECK)) {
                substantive++;
            }
        }
        return new Outcome(Map.copyOf(counts), substantive, stamp, file);
    }

    /** True when no conformance run has left any results: evidence from scenarios cannot be judged. */
    boolean isEmpty() {
        return latest.isEmpty();
    }

    Outcome outcome(ScenarioRef ref) {
        return latest.get(ref.side().name().toLowerCase(Locale.ROOT) + ":" + ref.scenario() + "@" + ref.revision());
    }

    boolean ranLeg(Side side, String revision) {
        String prefix = side.name().toLowerCase(Locale.ROOT) + ":";
        String suffix = "@" + revision;
        return latest.keySet().stream().anyMatch(k -> k.startsWith(prefix) && k.endsWith(suffix));
    }

    Path folder() {
        return folder;
    }

    List<String> unreadable() {
        return unreadable;
    }
}
