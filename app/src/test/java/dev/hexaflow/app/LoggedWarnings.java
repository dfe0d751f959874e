package dev.hexaflow.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;

/**
 * The warnings the application's services log while it is open (they log through {@link System.Logger}, which
 * reaches Logback in the server), each as the one message it is.
 */
final class LoggedWarnings implements AutoCloseable {

    private static final String APPLICATION = "dev.hexaflow.application";

    private final Logger logger = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(APPLICATION);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
                lines.add(event.getFormattedMessage());
            }
        }
    };

    LoggedWarnings() {
        appender.setContext(logger.getLoggerContext());
        appender.start();
        logger.addAppender(appender);
    }

    /** The warnings logged so far that mention {@code text}. */
    List<String> mentioning(String text) {
        return lines.stream().filter(line -> line.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
