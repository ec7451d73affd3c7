package dev.mcpx.router;

import java.util.Locale;

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

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
