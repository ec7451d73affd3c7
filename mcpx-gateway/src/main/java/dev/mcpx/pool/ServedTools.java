package dev.mcpx.pool;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Which of an upstream's tools mcpx serves to hosts. A tool whose {@code execution.taskSupport}
 * is {@code "required"} (the 2025-11-25 tasks utility) is left out: mcpx relays neither that
 * era's task-augmented calls nor its {@code tasks/*} methods, so every call of it would fail. (The
 * 2026-07-28 tasks extension is different: its tools are ordinary ones, and mcpx waits for the task
 * for a host that did not opt in.)
 */
public final class ServedTools {

    private static final Logger LOG = LoggerFactory.getLogger(ServedTools.class);

    private ServedTools() {
    }

    public static List<ObjectNode> of(String upstream, List<ObjectNode> tools) {
        List<ObjectNode> served = new ArrayList<>(tools.size());
        for (ObjectNode tool : tools) {
            if ("required".equals(tool.path("execution").path("taskSupport").asString(""))) {
                LOG.info("{}: not serving tool {}: it can only run as a task (execution.taskSupport \"required\"),"
                        + " which mcpx does not relay", upstream, tool.path("name").asString());
                continue;
            }
            served.add(tool);
        }
        return served;
    }
}
