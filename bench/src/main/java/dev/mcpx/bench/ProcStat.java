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

    /**
     * Context switches of the process's threads so far (voluntary and not), summed over
     * /proc/PID/task: on a virtual machine each one costs several microseconds, so this counts
     * the thread hand-offs a call makes. Threads that ended are not counted.
     */
    static double contextSwitches(long pid) {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            return tasks.mapToLong(ProcStat::switchesOf).sum();
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private static long switchesOf(Path task) {
        try {
            long sum = 0;
            for (String line : Files.readAllLines(task.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended while being read
        }
    }
}
