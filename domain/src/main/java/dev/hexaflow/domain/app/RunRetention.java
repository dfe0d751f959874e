package dev.hexaflow.domain.app;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How long ended runs are kept: for a time ({@code maxAge}), as the newest so many of each app
 * ({@code keepPerApp}), or both, whichever lets a run go first. A running run is always kept; with neither
 * bound, every run is kept for good.
 */
public record RunRetention(Optional<Duration> maxAge, OptionalInt keepPerApp) {

    /** Every run kept for good. */
    public static final RunRetention KEEP_ALL = new RunRetention(Optional.empty(), OptionalInt.empty());

    public RunRetention {
        if (maxAge == null || keepPerApp == null) {
            throw new IllegalArgumentException("maxAge and keepPerApp must not be null; empty for no bound");
        }
        if (maxAge.isPresent() && (maxAge.get().isNegative() || maxAge.get().isZero())) {
            throw new IllegalArgumentException("maxAge must be positive, was " + maxAge.get());
        }
        if (keepPerApp.isPresent() && keepPerApp.getAsInt() < 1) {
            throw new IllegalArgumentException("keepPerApp must be 1 or more, was " + keepPerApp.getAsInt());
        }
    }

    /** Whether any run is ever let go. */
    public boolean prunes() {
        return maxAge.isPresent() || keepPerApp.isPresent();
    }

    /** Runs created before this (Unix seconds) are let go, at {@code now}; empty without an age bound. */
    public Optional<Long> createdBefore(Instant now) {
        return maxAge.map(age -> now.minus(age).getEpochSecond());
    }
}
