package dev.mcpx.transport.stdio;

import java.util.ArrayDeque;
import java.util.Deque;

/** The last few stderr lines of a child, to say why it died. */
final class StderrTail {

    private final int capacity;
    private final Deque<String> lines = new ArrayDeque<>();

    StderrTail(int capacity) {
        this.capacity = capacity;
    }

    synchronized void add(String line) {
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    /** The last lines joined with " | ", at most 1000 characters. */
    synchronized String text() {
        String joined = String.join(" | ", lines);
        return joined.length() <= 1000 ? joined : "..." + joined.substring(joined.length() - 1000);
    }
}
