package dev.hexaflow.adapters.http.support;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * So many attempts per key (a client's address, a webhook's URL) in a window of time: a fixed window, as Dify's web
 * form limit counts them. A door that needs no key (a form's page, a webhook) is slowed by this alone.
 */
public final class WindowRateLimit {

    /** Keys remembered at most: past it, the windows that have ended are forgotten first. */
    private static final int MOST_KEYS = 10_000;

    private final int attempts;
    private final long windowMillis;
    private final Clock clock;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    public WindowRateLimit(int attempts, Duration window, Clock clock) {
        if (attempts < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a rate limit needs at least one attempt in a positive window");
        }
        this.attempts = attempts;
        this.windowMillis = window.toMillis();
        this.clock = clock;
    }

    /** Counts one attempt for {@code key}; false when it is one too many for its window. */
    public boolean allows(String key) {
        long now = clock.millis();
        if (windows.size() > MOST_KEYS) {
            windows.values().removeIf(window -> window.start + windowMillis <= now);
            if (windows.size() > MOST_KEYS) {
                windows.clear(); // Memory is bounded before the count is exact: a flood of keys resets it.
            }
        }
        Window window = windows.compute(key, (name, current) -> current == null
                || current.start + windowMillis <= now ? new Window(now, 1) : new Window(current.start,
                current.count + 1));
        return window.count <= attempts;
    }

    /** Whole seconds until {@code key}'s window ends (at least 1): what a refused caller is told to wait. */
    public long secondsLeft(String key) {
        Window window = windows.get(key);
        long left = window == null ? 0 : window.start + windowMillis - clock.millis();
        return Math.max(1, (left + 999) / 1000);
    }

    private record Window(long start, int count) {
    }
}
