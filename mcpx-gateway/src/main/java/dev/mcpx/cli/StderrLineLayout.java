package dev.mcpx.cli;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.util.CachingDateFormatter;

/**
 * The line {@link StderrLogConfigurator#PATTERN} describes, written without PatternLayout, whose
 * pattern parser and table of converters are about 150 classes and 70 lambdas at start-up. An
 * exception follows the line as PatternLayout appends it.
 */
final class StderrLineLayout extends LayoutBase<ILoggingEvent> {

    private final CachingDateFormatter time = new CachingDateFormatter("HH:mm:ss.SSS");
    private final ThrowableProxyConverter exception = new ThrowableProxyConverter();

    @Override
    public void start() {
        exception.setContext(getContext());
        exception.start();
        super.start();
    }

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(128).append(time.format(event.getTimeStamp())).append(' ');
        String level = event.getLevel().toString();
        line.append(level).repeat(' ', Math.max(0, 5 - level.length())).append(' ');
        String logger = event.getLoggerName();
        line.append(logger, logger.lastIndexOf('.') + 1, logger.length()).append(" - ").append(event.getFormattedMessage());
        String call = event.getMDCPropertyMap().get("call");
        if (call != null && !call.isEmpty()) {
            line.append(" [").append(call).append(']');
        }
        return line.append(CoreConstants.LINE_SEPARATOR).append(exception.convert(event)).toString();
    }
}
