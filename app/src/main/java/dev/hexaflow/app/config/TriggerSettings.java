package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import java.time.Duration;
import java.util.Map;

/**
 * How triggers run on this instance: how often it looks for due schedules (HEXAFLOW_TRIGGER_POLL_SECONDS; each tick
 * still fires once, whichever instance looks first), the largest request a webhook trigger reads
 * (HEXAFLOW_TRIGGER_MAX_BODY_KB, Dify's 10 MiB by default) and how many calls one webhook URL takes a minute
 * (HEXAFLOW_TRIGGER_CALLS_PER_MINUTE).
 */
public record TriggerSettings(Duration poll, long maxBodyBytes, int callsPerMinute) {

    /** The largest body the HTTP server reads at all. */
    static final long MOST_BODY_KB = 16 * 1024;

    public static final TriggerSettings DEFAULTS = new TriggerSettings(Duration.ofSeconds(10), 10L * 1024 * 1024,
            120);

    public TriggerSettings {
        if (poll.isNegative() || poll.isZero()) {
            throw new UsageException("HEXAFLOW_TRIGGER_POLL_SECONDS must be at least 1");
        }
        if (maxBodyBytes < 1024 || maxBodyBytes > MOST_BODY_KB * 1024) {
            throw new UsageException("HEXAFLOW_TRIGGER_MAX_BODY_KB must be between 1 and " + MOST_BODY_KB
                    + " (the largest body the server reads), was " + maxBodyBytes / 1024);
        }
        if (callsPerMinute < 1) {
            throw new UsageException("HEXAFLOW_TRIGGER_CALLS_PER_MINUTE must be at least 1, was " + callsPerMinute);
        }
    }

    /**
     * How late a schedule's tick may be found and still be on time: two polls and a minute's grace (a slow store, a
     * long garbage collection); a tick later than this was missed while no instance was up.
     */
    public Duration lateAfter() {
        return poll.multipliedBy(2).plusMinutes(1);
    }

    public static TriggerSettings fromEnvironment(Map<String, String> env) {
        return new TriggerSettings(Duration.ofSeconds(number(env, "HEXAFLOW_TRIGGER_POLL_SECONDS", 10)),
                1024L * number(env, "HEXAFLOW_TRIGGER_MAX_BODY_KB", 10 * 1024),
                number(env, "HEXAFLOW_TRIGGER_CALLS_PER_MINUTE", 120));
    }

    private static int number(Map<String, String> env, String name, int otherwise) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, was '" + text + "'");
        }
    }
}
