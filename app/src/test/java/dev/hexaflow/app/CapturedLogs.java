package dev.hexaflow.app;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import dev.hexaflow.app.config.LogSettings.LogFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The lines the real Logback backend writes while it is open, as the server's own encoder of {@code format} writes
 * them: an appender beside the server's on a logger (the root by default), taken off on close.
 */
final class CapturedLogs implements AutoCloseable {

    private final Logger logger;
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();

    CapturedLogs(LogFormat format) {
        this(Logger.ROOT_LOGGER_NAME, format);
    }

    CapturedLogs(String loggerName, LogFormat format) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        logger = context.getLogger(loggerName);
        appender.setContext(context);
        appender.setName("captured-" + System.identityHashCode(this));
        appender.setEncoder(LogOutput.encoder(format, context));
        appender.setImmediateFlush(true);
        appender.setOutputStream(written);
        appender.start();
        logger.addAppender(appender);
    }

    /** Every line written so far. */
    List<String> lines() {
        String text = written.toString(StandardCharsets.UTF_8);
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n"));
    }

    /** The lines written so far that mention {@code text}. */
    List<String> mentioning(String text) {
        return lines().stream().filter(line -> line.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
