package dev.hexaflow.domain.limit;

/**
 * A token bucket for one {@link RateLimit}, or for one instance's share of it: it holds up to {@code burst / shares}
 * tokens (at least one) and gains {@code perMinute / shares} a minute; a request takes one. Full when made. Not
 * thread-safe: its keeper takes it under a lock.
 */
public final class TokenBucket {

    /** What a sum of fractions of a token may be off by. */
    private static final double EPSILON = 1e-9;

    private RateLimit limit;
    private int shares;
    private double level;
    private long last;

    /** A full bucket for this instance's share of {@code limit}, {@code shares} instances sharing it. */
    public TokenBucket(RateLimit limit, int shares, long nowMillis) {
        this.limit = limit;
        this.shares = requireShares(shares);
        this.level = capacity();
        this.last = nowMillis;
    }

    /**
     * Takes one token at {@code nowMillis}: 0 when there was one, else the milliseconds until one is there (at
     * least 1), and nothing is taken.
     */
    public long take(long nowMillis) {
        refill(nowMillis);
        if (level >= 1 - EPSILON) {
            level -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - level) / perMillisecond() - EPSILON));
    }

    /**
     * Follows a change of the limit or of the instances that share it: the tokens it holds stay, up to the new
     * capacity.
     */
    public void resize(RateLimit newLimit, int newShares, long nowMillis) {
        if (newLimit.equals(limit) && newShares == shares) {
            return;
        }
        refill(nowMillis);
        limit = newLimit;
        shares = requireShares(newShares);
        level = Math.min(level, capacity());
    }

    /** Whether it is full at {@code nowMillis}: forgetting it then loses nothing. */
    public boolean fullAt(long nowMillis) {
        return level + Math.max(0, nowMillis - last) * perMillisecond() >= capacity();
    }

    /** The most tokens it holds: its share of the burst, at least one so that a share can admit anything. */
    public double capacity() {
        return Math.max(1.0, (double) limit.burst() / shares);
    }

    private double perMillisecond() {
        return limit.perMillisecond() / shares;
    }

    private void refill(long nowMillis) {
        if (nowMillis > last) {
            level = Math.min(capacity(), level + (nowMillis - last) * perMillisecond());
            last = nowMillis;
        }
    }

    private static int requireShares(int shares) {
        if (shares < 1) {
            throw new IllegalArgumentException("a limit is shared by at least one instance, was " + shares);
        }
        return shares;
    }
}
