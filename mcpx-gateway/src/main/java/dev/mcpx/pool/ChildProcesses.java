package dev.mcpx.pool;

import dev.mcpx.client.McpClient;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Closes a client and makes sure no process it started outlives it (npx -> node, sh -> ...). */
final class ChildProcesses {

    private ChildProcesses() {
    }

    static void close(McpClient client) {
        List<ProcessHandle> tree = client.pid().flatMap(ProcessHandle::of)
                .map(root -> root.descendants().toList()).orElse(List.of());
        client.close();
        for (ProcessHandle orphan : tree) {
            if (orphan.isAlive()) {
                orphan.destroy();
            }
        }
        for (ProcessHandle orphan : tree) {
            try {
                orphan.onExit().get(2, TimeUnit.SECONDS);
            } catch (Exception e) {
                orphan.destroyForcibly();
            }
        }
    }
}
