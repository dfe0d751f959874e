package dev.hexaflow.domain.limit;

/**
 * At most {@code amount} of {@code measure} spent by each {@code scope} (the app, each of its keys, each of its end
 * users) in each {@code period} (a calendar day or month in the app's time zone).
 */
public record Budget(Scope scope, Period period, Measure measure, long amount) {

    /** Whose spending one budget counts. */
    public enum Scope {
        APP, KEY, END_USER
    }

    /** The calendar span a budget runs over; it resets at the span's start in the app's time zone. */
    public enum Period {
        DAY, MONTH
    }

    /** What a budget counts: the tokens the model reports (input and output), or their price in millionths. */
    public enum Measure {
        TOKENS, PRICE_MICROS
    }

    public Budget {
        if (scope == null || period == null || measure == null) {
            throw new IllegalArgumentException("a budget names its scope, period and measure");
        }
        if (amount < 1) {
            throw new IllegalArgumentException("a budget must be at least 1, was " + amount);
        }
    }
}
