package dev.mcpx.front;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.mcpx.protocol.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The JVM's own JSON thread dump. From JDK 25 on it lists the monitors each thread owns: a
 * virtual thread that waits while owning one pins its carrier on JDK 21-23.
 */
final class ThreadDumps {

    /** One thread as the dump shows it. */
    record DumpedThread(String name, boolean virtual, String state, List<String> stack, List<String> monitorOwners) {

        boolean runs(String frame) {
            return stack.stream().anyMatch(line -> line.contains(frame));
        }

        boolean waiting() {
            return state.equals("WAITING") || state.equals("TIMED_WAITING");
        }
    }

    private ThreadDumps() {
    }

    static List<DumpedThread> virtualThreads() {
        return threads().stream().filter(DumpedThread::virtual).toList();
    }

    /** Platform and virtual threads alike. */
    static List<DumpedThread> threads() {
        try {
            Path file = Files.createTempDirectory("mcpx-threads").resolve("dump.json");
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            JsonNode dump = Json.parse(Files.readString(file));
            Files.delete(file);
            Files.delete(file.getParent());
            List<DumpedThread> threads = new ArrayList<>();
            for (JsonNode container : dump.path("threadDump").path("threadContainers")) {
                for (JsonNode thread : container.path("threads")) {
                    List<String> stack = new ArrayList<>();
                    thread.path("stack").forEach(frame -> stack.add(frame.asString()));
                    List<String> owners = new ArrayList<>();
                    for (JsonNode held : thread.path("monitorsOwned")) {
                        int depth = held.path("depth").asInt();
                        owners.add(depth < stack.size() ? stack.get(depth) : "?");
                    }
                    threads.add(new DumpedThread(thread.path("name").asString(""), thread.path("virtual").asBoolean(false),
                            thread.path("state").asString(""), stack, owners));
                }
            }
            return threads;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Virtual threads that wait while a frame of {@code packagePrefix} owns a monitor: each would
     * pin a carrier on JDK 21-23. (The JDK's own java.io takes monitors on JDK 25, which does not
     * pin, and ReentrantLocks on 21, so only monitors mcpx code takes count.)
     */
    static List<DumpedThread> pinnedBy(String packagePrefix) {
        return virtualThreads().stream()
                .filter(thread -> thread.waiting()
                        && thread.monitorOwners().stream().anyMatch(owner -> owner.startsWith(packagePrefix)))
                .toList();
    }
}
