package dev.mcpx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a process used so far (user + system, its waited-for children included), from
 * /proc/PID/stat. On a shared machine this moves far less than wall-clock time does.
 */
final class ProcStat {

    private static final double MILLIS_PER_TICK = 10.0;

    private ProcStat() {
    }

    static double cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // fields after the command name, which is in parentheses and may hold spaces
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = 0;
            for (int i = 11; i <= 14; i++) {
                ticks += Long.parseLong(fields[i]);
            }
            return ticks * MILLIS_PER_TICK;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
