package dev.mcpx.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.stream.Stream;

/**
 * Where the check looks, from system properties that the conformance module's pom sets (and a
 * developer may override), with defaults that also work when the test is run from an IDE.
 *
 * <ul>
 * <li>{@code mcpx.root}: the repository root (default: the nearest folder above the working
 *     directory holding conformance/register.yaml)</li>
 * <li>{@code mcpx.spec}: the spec folder (default: ROOT/../shared/spec)</li>
 * <li>{@code mcpx.conformance.results}: the latest conformance run (default: ROOT/results/conformance)</li>
 * <li>{@code mcpx.build.start}: when this Maven build started (UTC, ISO-8601); reports older than
 *     that are from an earlier build</li>
 * <li>{@code mcpx.register.acceptOlderReports=true}: accept such reports, for quick iterations on
 *     the register alone (never in CI)</li>
 * <li>{@code mcpx.register.requireScenarios=true}: every cited scenario must have current results;
 *     rows marked {@code verified-by: conformance-run} are no longer allowed to wait (the last check
 *     of bin/test, after every conformance leg ran)</li>
 * </ul>
 */
record CheckContext(Path root, Path register, Path specRoot, Path results, Path compareDocs, Instant buildStart,
        boolean acceptOlderReports, boolean requireScenarios) {

    /**
     * When mcpx's code last changed: the newest pom or main source file of the reactor's modules
     * (the rule conformance/run uses to decide whether to rebuild). Conformance results older than
     * this were produced by other code.
     */
    Instant codeChanged() {
        Instant newest = Instant.EPOCH;
        try (Stream<Path> modules = Files.list(root)) {
            // This module holds no mcpx code: editing the register must not make results stale.
            for (Path module : modules.filter(Files::isDirectory)
                    .filter(m -> !m.getFileName().toString().equals("conformance")).toList()) {
                newest = newer(newest, module.resolve("pom.xml"));
                Path main = module.resolve("src/main");
                if (Files.isDirectory(main)) {
                    try (Stream<Path> files = Files.walk(main)) {
                        for (Path file : files.filter(Files::isRegularFile).toList()) {
                            newest = newer(newest, file);
                        }
                    }
                }
            }
            return newer(newest, root.resolve("pom.xml"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the sources under " + root, e);
        }
    }

    private static Instant newer(Instant newest, Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return newest;
        }
        Instant modified = Files.getLastModifiedTime(file).toInstant();
        return modified.isAfter(newest) ? modified : newest;
    }

    static CheckContext fromSystemProperties() {
        Path root = findRoot();
        Path spec = Path.of(System.getProperty("mcpx.spec", root.resolve("../shared/spec").normalize().toString()));
        Path results = Path.of(System.getProperty("mcpx.conformance.results", root.resolve("results/conformance").toString()));
        return new CheckContext(root, root.resolve("conformance/register.yaml"), spec, results,
                root.resolve("docs/compare/register"), readBuildStart(), Boolean.getBoolean("mcpx.register.acceptOlderReports"),
                Boolean.getBoolean("mcpx.register.requireScenarios"));
    }

    private static Path findRoot() {
        String configured = System.getProperty("mcpx.root");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("conformance/register.yaml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no conformance/register.yaml above " + Path.of("").toAbsolutePath()
                + "; set -Dmcpx.root");
    }

    private static Instant readBuildStart() {
        String text = System.getProperty("mcpx.build.start");
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalStateException("mcpx.build.start is not an ISO-8601 instant: " + text, e);
        }
    }
}
