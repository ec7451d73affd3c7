package dev.mcpx.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.LoggerFactory;

/** One-shot commands log warnings only, unless {@code MCPX_LOG} says otherwise; serve logs INFO. */
final class Logging {

    private Logging() {
    }

    static void quietUnlessAsked() {
        String asked = System.getenv("MCPX_LOG");
        setRoot(asked == null || asked.isBlank() ? "WARN" : asked);
    }

    /**
     * {@code mcpx.logFormat: "json"}: from here on every line on stderr is one JSON object
     * (logback's JSON encoder: timestamp, level, logger, formattedMessage, the call's {@code mdc}).
     */
    static void json() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)
                || !(context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(StderrLogConfigurator.APPENDER)
                instanceof ConsoleAppender<ILoggingEvent> stderr)) {
            return;
        }
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        encoder.setWithArguments(false);
        encoder.setWithMessage(false);
        encoder.setWithFormattedMessage(true);
        encoder.setWithContext(false);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.start();
        stderr.stop();
        stderr.setEncoder(encoder);
        stderr.start();
    }

    static void setRoot(String level) {
        if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root) {
            root.setLevel(Level.toLevel(level, Level.INFO));
        }
    }
}
