package dev.hexaflow.domain.limit;

/**
 * A token bucket: {@code perMinute} requests a minute on average, up to {@code burst} at once after a quiet spell.
 */
public record RateLimit(int perMinute, int burst) {

    public RateLimit {
        if (perMinute < 1) {
            throw new IllegalArgumentException("a rate must be at least 1 request a minute, was " + perMinute);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("a burst must be at least 1 request, was " + burst);
        }
    }

    /** Tokens the bucket gains a millisecond. */
    public double perMillisecond() {
        return perMinute / 60_000.0;
    }
}
