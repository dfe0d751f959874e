package dev.hexaflow.domain.webhook;

import java.time.Duration;
import java.util.List;

/**
 * When a failed delivery is tried again: after the n-th failure, the n-th delay (the last one for every failure
 * past the list), until {@code giveUpAfter} has passed since the run's end; each attempt waits at most
 * {@code timeout} for an answer.
 */
public record RetrySchedule(List<Duration> delays, Duration giveUpAfter, Duration timeout) {

    /** 10 s, 30 s, 1 min, 5 min, 15 min, 30 min, then hourly, for a day; 10 s for an answer. */
    public static final RetrySchedule STANDARD = new RetrySchedule(List.of(Duration.ofSeconds(10),
            Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(15),
            Duration.ofMinutes(30), Duration.ofHours(1)), Duration.ofHours(24), Duration.ofSeconds(10));

    public RetrySchedule {
        delays = List.copyOf(delays);
        if (delays.isEmpty() || delays.stream().anyMatch(d -> d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException("delays must hold one or more positive durations");
        }
        if (giveUpAfter == null || giveUpAfter.isNegative()) {
            throw new IllegalArgumentException("giveUpAfter must not be negative");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
    }

    /** The wait after the {@code failures}-th failed attempt (1 for the first). */
    public Duration delayAfter(int failures) {
        if (failures < 1) {
            throw new IllegalArgumentException("failures starts at 1, was " + failures);
        }
        return delays.get(Math.min(failures, delays.size()) - 1);
    }
}
