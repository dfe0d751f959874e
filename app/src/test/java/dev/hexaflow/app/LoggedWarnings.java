package dev.hexaflow.app;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The warnings the application's services log while it is open (they log through {@link System.Logger}, which
 * is java.util.logging in the server), each as the one line it is.
 */
final class LoggedWarnings implements AutoCloseable {

    private static final String APPLICATION = "dev.hexaflow.application";

    private final Logger logger = Logger.getLogger(APPLICATION);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                lines.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    LoggedWarnings() {
        logger.addHandler(handler);
    }

    /** The warnings logged so far that mention {@code text}. */
    List<String> mentioning(String text) {
        return lines.stream().filter(line -> line.contains(text)).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
