package dev.hexaflow.app;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import dev.hexaflow.app.config.LogSettings.LogFormat;
import org.slf4j.LoggerFactory;

/**
 * Puts the form the operator chose on the server's log lines: {@link LogSetup} writes text to standard error, and
 * JSON swaps the encoder of that same appender, so the levels and the target stay as they were set up.
 */
public final class LogOutput {

    /** The server's appender; an operator's own Logback file without one of this name keeps its own encoders. */
    static final String APPENDER = "STDERR";
    /** The property that holds the text pattern, put by {@link LogSetup} (or an operator's own file). */
    static final String TEXT_PATTERN = "hexaflow.textPattern";

    private LogOutput() {
    }

    /** Writes every later line in {@code format}; a no-op where Logback is not the backend. */
    public static void use(LogFormat format) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        Appender<ILoggingEvent> appender = context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender(APPENDER);
        if (!(appender instanceof OutputStreamAppender<ILoggingEvent> stream)) {
            return;
        }
        Encoder<ILoggingEvent> encoder = encoder(format, context);
        if (encoder == null) {
            return;
        }
        stream.stop();
        stream.setEncoder(encoder);
        stream.start();
    }

    /**
     * The encoder of {@code format}: the text pattern of {@link #TEXT_PATTERN} (null when the set-up in use
     * defines none), or Logback's JSON encoder with the fields a log collector needs: timestamp (Unix milliseconds),
     * level, logger, thread, the message as formatted, the key-value pairs (app_id, run_id, ...), the MDC and
     * the exception; not the raw message template and its arguments, which repeat the formatted message.
     */
    static Encoder<ILoggingEvent> encoder(LogFormat format, LoggerContext context) {
        if (format == LogFormat.JSON) {
            JsonEncoder json = new JsonEncoder();
            json.setContext(context);
            json.setWithSequenceNumber(false);
            json.setWithNanoseconds(false);
            json.setWithContext(false);
            json.setWithMessage(false);
            json.setWithArguments(false);
            json.setWithFormattedMessage(true);
            json.start();
            return json;
        }
        String pattern = context.getProperty(TEXT_PATTERN);
        if (pattern == null) {
            return null;
        }
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(pattern);
        text.start();
        return text;
    }
}
