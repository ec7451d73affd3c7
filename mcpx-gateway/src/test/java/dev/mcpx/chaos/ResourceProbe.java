package dev.mcpx.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What this JVM holds that a leak would grow: platform threads, open file descriptors
 * (sockets and pipes), live child processes and heap after a collection.
 */
record ResourceProbe(int platformThreads, long fileDescriptors, long children, long heapBytes) {

    static ResourceProbe now() {
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        return new ResourceProbe(Thread.getAllStackTraces().size(), openDescriptors(),
                ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(),
                runtime.totalMemory() - runtime.freeMemory());
    }

    /** Names of the live platform threads, to say which ones leaked. */
    static List<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).sorted().toList();
    }

    private static long openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            return -1;
        }
    }
}
