package dev.mcpx.testkit.conformance;

import java.util.Locale;

/** MCP log levels, least severe first (RFC 5424 names). */
enum LogLevel {
    DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY;

    static LogLevel parse(String name) {
        if (name == null) {
            return null;
        }
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
