package dev.mcpx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Resident memory of a process as Linux reports it in /proc/PID/status: VmRSS (all resident
 * pages, including mapped files such as a JVM class archive) and RssAnon (private memory only).
 */
final class Rss {

    private Rss() {
    }

    static double ofPid(long pid) {
        return field(pid, "VmRSS:");
    }

    static double anonymousOfPid(long pid) {
        return field(pid, "RssAnon:");
    }

    private static double field(long pid, String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
                }
            }
        } catch (IOException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }
}
