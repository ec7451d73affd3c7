package dev.mcpx.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/** One-shot commands log warnings only, unless {@code MCPX_LOG} says otherwise; serve logs INFO. */
final class Logging {

    private Logging() {
    }

    static void quietUnlessAsked() {
        String asked = System.getenv("MCPX_LOG");
        setRoot(asked == null || asked.isBlank() ? "WARN" : asked);
    }

    static void setRoot(String level) {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.toLevel(level, Level.INFO));
        }
    }
}
