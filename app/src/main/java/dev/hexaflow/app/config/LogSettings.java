package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import java.util.Locale;
import java.util.Map;

/**
 * How the server writes its log lines: as text or as one JSON object a line (HEXAFLOW_LOG_FORMAT), and whether
 * each HTTP request gets a line of its own (HEXAFLOW_REQUEST_LOG; off by default, as a busy server would write
 * little else).
 */
public record LogSettings(LogFormat format, boolean requests) {

    /** The two forms of a log line. */
    public enum LogFormat {
        /** {@code 2026-11-28T06:33:35.220+0000 [main] INFO Hexaflow - message}, for a person at a terminal. */
        TEXT,
        /** One JSON object a line, with the structured fields (app_id, run_id, ...), for a log collector. */
        JSON
    }

    public static final LogSettings DEFAULTS = new LogSettings(LogFormat.TEXT, false);

    public LogSettings {
        format = format == null ? LogFormat.TEXT : format;
    }

    public static LogSettings fromEnvironment(Map<String, String> env) {
        return new LogSettings(format(env.getOrDefault("HEXAFLOW_LOG_FORMAT", "")),
                flag(env.getOrDefault("HEXAFLOW_REQUEST_LOG", "")));
    }

    public LogSettings withFormat(LogFormat value) {
        return new LogSettings(value, requests);
    }

    public LogSettings withRequests(boolean value) {
        return new LogSettings(format, value);
    }

    private static LogFormat format(String text) {
        String word = text.strip().toLowerCase(Locale.ROOT);
        return switch (word) {
            case "", "text" -> LogFormat.TEXT;
            case "json" -> LogFormat.JSON;
            default -> throw new UsageException("HEXAFLOW_LOG_FORMAT takes text or json, was '" + text + "'");
        };
    }

    private static boolean flag(String text) {
        String word = text.strip();
        if (word.isEmpty() || word.equalsIgnoreCase("false")) {
            return false;
        }
        if (word.equalsIgnoreCase("true")) {
            return true;
        }
        throw new UsageException("HEXAFLOW_REQUEST_LOG takes true or false, was '" + text + "'");
    }
}
