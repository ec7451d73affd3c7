package dev.mcpx.telemetry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's {@code chromium}, headless: loads a page, lets its scripts run for a budget of
 * virtual time (the page's fetches complete within it), and hands back the DOM or a screenshot.
 */
final class HeadlessChromium {

    private HeadlessChromium() {
    }

    private static String binary() {
        for (String candidate : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("this test needs a real headless browser: install Debian's package with "
                + "'apt-get install -y chromium' (.ci/run does)");
    }

    /** The DOM of {@code page} after its scripts ran. */
    static String dumpDom(URI page) throws Exception {
        return run(page, "--dump-dom");
    }

    /** A PNG of {@code page} at 1280x900 into {@code file}. */
    static void screenshot(URI page, Path file) throws Exception {
        run(page, "--screenshot=" + file.toAbsolutePath(), "--window-size=1280,900", "--hide-scrollbars");
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("chromium wrote no screenshot to " + file);
        }
    }

    private static String run(URI page, String... what) throws Exception {
        Path profile = Files.createTempDirectory("mcpx-chromium");
        Path out = profile.resolve("stdout");
        Path err = profile.resolve("stderr");
        try {
            List<String> command = new ArrayList<>(List.of(binary(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--disable-dev-shm-usage", "--user-data-dir=" + profile.resolve("profile"),
                    "--virtual-time-budget=10000"));
            command.addAll(List.of(what));
            command.add(page.toString());
            Process chromium = new ProcessBuilder(command).directory(profile.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!chromium.waitFor(120, TimeUnit.SECONDS)) {
                chromium.destroyForcibly();
                throw new IllegalStateException("chromium did not finish within 120 s: " + Files.readString(err));
            }
            if (chromium.exitValue() != 0) {
                throw new IllegalStateException("chromium exited with " + chromium.exitValue() + ": " + Files.readString(err));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> {
                    try {
                        Files.deleteIfExists(path);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }
}
