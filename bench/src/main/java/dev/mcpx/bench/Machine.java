package dev.mcpx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The machine a run measured: cores, memory, CPU model, OS, JDK, date, mcpx commit. */
final class Machine {

    private Machine() {
    }

    static String describe(ZonedDateTime started, String commit) {
        return "| | |\n|---|---|\n"
                + "| date (UTC) | " + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(started) + " |\n"
                + "| cores | " + Runtime.getRuntime().availableProcessors() + " (" + cpuModel() + ") |\n"
                + "| memory | " + memTotal() + " |\n"
                + "| OS | " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " |\n"
                + "| JDK | " + System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version")
                + " (driver and gateway) |\n"
                + "| mcpx commit | " + commit + " (when the run started) |\n";
    }

    private static String cpuModel() {
        return lines("/proc/cpuinfo").stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown CPU");
    }

    private static String memTotal() {
        return lines("/proc/meminfo").stream().filter(l -> l.startsWith("MemTotal"))
                .map(l -> String.format("%.1f GiB", Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0))
                .findFirst().orElse("unknown");
    }

    static String commit() {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes()).trim();
            return git.waitFor() == 0 ? out : "unknown";
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException e) {
            return List.of();
        }
    }
}
