package dev.mcpx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The layout writes what Logback's PatternLayout writes for the pattern it stands for. */
class StderrLineLayoutTest {

    private final LoggerContext context = new LoggerContext();

    @Test
    void linesAreWhatThePatternWouldWrite() {
        PatternLayout pattern = new PatternLayout();
        pattern.setContext(context);
        pattern.setPattern(StderrLogConfigurator.PATTERN);
        pattern.start();
        StderrLineLayout layout = new StderrLineLayout();
        layout.setContext(context);
        layout.start();
        IllegalStateException failure = new IllegalStateException("upstream gone", new IOException("broken pipe"));
        for (LoggingEvent event : List.of(
                event("dev.mcpx.cli.ServeCommand", Level.INFO, "serving on stdio with {} upstreams", null, Map.of(), 3),
                event("dev.mcpx.pool.Pool", Level.WARN, "upstream {} failed", failure, Map.of("call", "request 7 trace abc"), "u1"),
                event("Root", Level.ERROR, "no arguments", null, Map.of("call", ""), (Object[]) null),
                event("org.eclipse.jetty.server.Server", Level.DEBUG, null, null, Map.of()))) {
            assertThat(layout.doLayout(event)).isEqualTo(pattern.doLayout(event));
        }
    }

    private LoggingEvent event(String logger, Level level, String message, Throwable thrown, Map<String, String> mdc,
                               Object... arguments) {
        LoggingEvent event = new LoggingEvent(getClass().getName(), context.getLogger(logger), level, message, thrown, arguments);
        event.setMDCPropertyMap(mdc);
        return event;
    }
}
