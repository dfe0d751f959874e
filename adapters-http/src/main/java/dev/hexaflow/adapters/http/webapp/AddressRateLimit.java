package dev.hexaflow.adapters.http.webapp;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * So many attempts per client address in a window of time (a fixed window, as Dify's web form limit counts them):
 * a form's page needs no key, so a script that tries one answer after another is slowed by this alone.
 */
final class AddressRateLimit {

    /** Addresses remembered at most: past it, the windows that have ended are forgotten first. */
    private static final int MOST_ADDRESSES = 10_000;

    private final int attempts;
    private final long windowMillis;
    private final Clock clock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    AddressRateLimit(int attempts, Duration window, Clock clock) {
        if (attempts < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a rate limit needs at least one attempt in a positive window");
        }
        this.attempts = attempts;
        this.windowMillis = window.toMillis();
        this.clock = clock;
    }

    /** Counts one attempt from {@code address}; false when it is one too many for its window. */
    boolean allows(String address) {
        long now = clock.millis();
        if (windows.size() > MOST_ADDRESSES) {
            windows.values().removeIf(window -> window.start + windowMillis <= now);
            if (windows.size() > MOST_ADDRESSES) {
                windows.clear(); // Memory is bounded before the count is exact: a flood of addresses resets it.
            }
        }
        Window window = windows.compute(address, (key, current) -> current == null
                || current.start + windowMillis <= now ? new Window(now, 1) : new Window(current.start,
                current.count + 1));
        return window.count <= attempts;
    }

    private record Window(long start, int count) {
    }
}
