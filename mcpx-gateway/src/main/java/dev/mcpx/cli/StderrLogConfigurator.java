package dev.mcpx.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logback's set-up, in code: a {@code logback.xml} is read by Joran, about 640 classes with the XML
 * parser before the first answer. Every line goes to stderr (stdout belongs to MCP in stdio mode);
 * a line about a host request ends with {@code [request ID trace TRACE-ID]}. Logback finds this
 * class through {@code META-INF/services}; {@code -Dlogback.configurationFile} still takes over.
 */
public final class StderrLogConfigurator extends ContextAwareBase implements Configurator {

    static final String APPENDER = "STDERR";
    /** What each line looks like, as a Logback pattern: {@link StderrLineLayout} writes it. */
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{0} - %msg%replace( [%X{call}]){' \\[\\]', ''}%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        StderrLineLayout layout = new StderrLineLayout();
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName(APPENDER);
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
