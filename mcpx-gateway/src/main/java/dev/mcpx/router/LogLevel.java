package dev.mcpx.router;

import dev.mcpx.protocol.Json;
import java.util.Locale;
import tools.jackson.databind.node.ObjectNode;

/** The MCP log levels (RFC 5424 names), least severe first, as both eras spell them. */
public enum LogLevel {
    DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

    /** The level a wire name denotes, or null when it is not one. */
    public static LogLevel parse(String wire) {
        if (wire == null) {
            return null;
        }
        for (LogLevel level : values()) {
            if (level.wire().equals(wire)) {
                return level;
            }
        }
        return null;
    }

    /**
     * Whether a host that asked for {@code wanted} (null: asked for none) hears the log line
     * {@code params}: at or above its level; a line whose level is not one is passed on.
     */
    public static boolean heard(LogLevel wanted, ObjectNode params) {
        LogLevel level = parse(Json.text(params, "level"));
        return wanted == null || level == null || level.compareTo(wanted) >= 0;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
