package dev.mcpx.setup;

import java.util.List;

/**
 * A unified diff of a file before and after {@code setup}. Setup changes one region of each
 * file, so the lines between the common head and tail are the whole change.
 */
final class LineDiff {

    private static final int CONTEXT = 3;

    private LineDiff() {
    }

    /** Empty when nothing changes. {@code before} is null for a file that does not exist yet. */
    static String of(String label, String before, String after) {
        List<String> old = before == null ? List.of() : before.lines().toList();
        List<String> now = after.lines().toList();
        int head = 0;
        while (head < old.size() && head < now.size() && old.get(head).equals(now.get(head))) {
            head++;
        }
        int tail = 0;
        while (tail < old.size() - head && tail < now.size() - head
                && old.get(old.size() - 1 - tail).equals(now.get(now.size() - 1 - tail))) {
            tail++;
        }
        if (head == old.size() && head == now.size()) {
            return "";
        }
        int from = Math.max(0, head - CONTEXT);
        int oldEnd = Math.min(old.size(), old.size() - tail + CONTEXT);
        int nowEnd = Math.min(now.size(), now.size() - tail + CONTEXT);
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(before == null ? "/dev/null" : label).append('\n');
        out.append("+++ ").append(label).append('\n');
        out.append("@@ -").append(from + 1).append(',').append(oldEnd - from)
                .append(" +").append(from + 1).append(',').append(nowEnd - from).append(" @@\n");
        for (int i = from; i < head; i++) {
            out.append(' ').append(old.get(i)).append('\n');
        }
        for (int i = head; i < old.size() - tail; i++) {
            out.append('-').append(old.get(i)).append('\n');
        }
        for (int i = head; i < now.size() - tail; i++) {
            out.append('+').append(now.get(i)).append('\n');
        }
        for (int i = now.size() - tail; i < nowEnd; i++) {
            out.append(' ').append(now.get(i)).append('\n');
        }
        return out.toString();
    }
}
