package dev.hexaflow.domain.workflow;

import java.time.Duration;

/**
 * How often a failing node is tried again, and how long it waits between tries: Dify's {@code retry_config}
 * ({@code retry_enabled}, {@code max_retries}, {@code retry_interval} in milliseconds), read once.
 */
public record RetryPolicy(boolean enabled, long maxRetries, Duration interval) {

    public static final RetryPolicy NONE = new RetryPolicy(false, 0, Duration.ZERO);

    public RetryPolicy {
        // Dify takes any integer and treats a negative count or wait as none.
        maxRetries = Math.max(0, maxRetries);
        interval = interval == null || interval.isNegative() ? Duration.ZERO : interval;
    }

    /**
     * Reads a node's {@code retry_config}; files from Dify's older editor say {@code enabled} for
     * {@code retry_enabled}.
     *
     * @throws InvalidNodeDataException when a field is not of its type, naming it ({@code retry_config.max_retries})
     */
    public static RetryPolicy of(DataTree data) {
        DataTree config = data.tree("retry_config");
        try {
            boolean enabled = config.bool("retry_enabled", config.bool("enabled", false));
            long maxRetries = config.longValue("max_retries", 0);
            long interval = config.longValue("retry_interval", 0);
            return new RetryPolicy(enabled, maxRetries, Duration.ofMillis(Math.max(0, interval)));
        } catch (InvalidNodeDataException e) {
            throw e.within("retry_config");
        }
    }

    /** The tries after the first: none unless retries are enabled. */
    public long retries() {
        return enabled ? maxRetries : 0;
    }
}
