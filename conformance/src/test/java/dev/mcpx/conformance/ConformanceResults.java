package dev.mcpx.conformance;

import dev.mcpx.conformance.ScenarioRef.Side;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
 * <p>A check id can occur more than once in a scenario (the suite runs some checks once per method
 * the client sent, and skips them for methods it never sent). A check id <em>holds</em> when none of
 * its occurrences failed or warned and at least one succeeded; a check id that was only ever skipped
 * proves nothing. A scenario <em>passed</em> when every check id in it holds and at least one check
 * other than the suite's own {@code wire-schema-valid} succeeded: a client that does nothing
 * "passes" some scenarios with every check skipped.
 */
final class ConformanceResults {

    static final String WIRE_SCHEMA_CHECK = "wire-schema-valid";
    private static final Pattern LEG = Pattern.compile("(client|server)-(\\d{4}-\\d{2}-\\d{2})");
    private static final Pattern STAMP = Pattern.compile("-(\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z)$");

    /** One scenario's newest run: per check id, how often it ended in each status; and where it was read. */
    record Outcome(Map<String, Map<String, Integer>> statusesById, String stamp, Path file) {

        boolean passed() {
            return statusesById.keySet().stream().allMatch(this::holds) && substantiveSuccesses() > 0;
        }

        boolean holds(String check) {
            Map<String, Integer> statuses = statusesById.get(check);
            return statuses != null && statuses.getOrDefault("FAILURE", 0) == 0
                    && statuses.getOrDefault("WARNING", 0) == 0 && statuses.getOrDefault("SUCCESS", 0) > 0
                    || statuses != null && statuses.keySet().stream().allMatch("INFO"::equals);
        }

        List<String> notHolding() {
            return statusesById.keySet().stream().filter(id -> !holds(id)).sorted()
                    .map(id -> id + " " + statusesById.get(id)).toList();
        }

        int substantiveSuccesses() {
            return statusesById.entrySet().stream().filter(e -> !e.getKey().equals(WIRE_SCHEMA_CHECK))
                    .mapToInt(e -> e.getValue().getOrDefault("SUCCESS", 0)).sum();
        }

        String describe() {
            return notHolding() + " (" + file + ")";
        }
    }

    private final Path folder;
    private final Instant codeChanged;
    private final Map<String, Outcome> latest = new HashMap<>();
    private final Set<String> staleLegs = new TreeSet<>();
    private final List<String> unreadable = new ArrayList<>();

    private ConformanceResults(Path folder, Instant codeChanged) {
        this.folder = folder;
        this.codeChanged = codeChanged;
    }

    /**
     * @param codeChanged when mcpx's code last changed; results written before it were produced by
     *                    other code and are ignored (null: take every result)
     */
    static ConformanceResults read(Path folder, Instant codeChanged) {
        ConformanceResults results = new ConformanceResults(folder, codeChanged);
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
            if (codeChanged != null && Files.getLastModifiedTime(file).toInstant().isBefore(codeChanged)) {
                staleLegs.add(leg.getFileName().toString());
                continue;
            }
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
        Map<String, Map<String, Integer>> statusesById = new HashMap<>();
        for (JsonNode check : checks) {
            statusesById.computeIfAbsent(check.path("id").asString(""), k -> new HashMap<>())
                    .merge(check.path("status").asString(""), 1, Integer::sum);
        }
        return new Outcome(statusesById, stamp, file);
    }

    /** True when no conformance run has left any results: evidence from scenarios cannot be judged. */
    boolean isEmpty() {
        return latest.isEmpty();
    }

    Outcome outcome(ScenarioRef ref) {
        return latest.get(ref.sideName() + ":" + ref.scenario() + "@" + ref.revision());
    }

    boolean ranLeg(Side side, String revision) {
        String prefix = side.name().toLowerCase(Locale.ROOT) + ":";
        String suffix = "@" + revision;
        return latest.keySet().stream().anyMatch(k -> k.startsWith(prefix) && k.endsWith(suffix));
    }

    /** True when the leg has results, all of them written before the code last changed. */
    boolean staleLeg(ScenarioRef ref) {
        return !ranLeg(ref.side(), ref.revision()) && staleLegs.contains(ref.sideName() + "-" + ref.revision());
    }

    Instant codeChanged() {
        return codeChanged;
    }

    Path folder() {
        return folder;
    }

    List<String> unreadable() {
        return unreadable;
    }
}
