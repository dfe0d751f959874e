package dev.hexaflow.adapters.http.server;

import java.time.Duration;

/**
 * What one client may hold of the server, so that slow or many clients cannot take every request thread from the
 * others.
 *
 * @param requestsPerAddress requests in progress at once from one remote address (0: no limit); the one over it
 *                           is answered 429 at once, holding no thread
 * @param minBodyBytesPerSecond the least average rate at which a request body must arrive once the server waits
 *                           for it (0: no minimum); a body slower than that fails its request
 * @param bodyGrace          how long a body may take to begin before the rate applies
 * @param idleTimeout        how long a connection may send and receive nothing before it is closed
 */
public record ClientLimits(int requestsPerAddress, long minBodyBytesPerSecond, Duration bodyGrace,
        Duration idleTimeout) {

    /**
     * 1000 requests per address: one address may hold a tenth of the 10 000 request threads, and a client that
     * means to hold more (a proxy in front, a benchmark of open streams) is allowed by its operator. 1 KiB/s
     * after 5 s: a phone on a bad line sends faster; a trickle of a byte a second is cut after the grace.
     * 30 s idle: Jetty's own default.
     */
    public static final ClientLimits DEFAULTS = new ClientLimits(1000, 1024, Duration.ofSeconds(5),
            Duration.ofSeconds(30));

    public ClientLimits {
        if (requestsPerAddress < 0) {
            throw new IllegalArgumentException("requestsPerAddress must not be negative, was " + requestsPerAddress);
        }
        if (minBodyBytesPerSecond < 0) {
            throw new IllegalArgumentException("minBodyBytesPerSecond must not be negative, was "
                    + minBodyBytesPerSecond);
        }
        if (bodyGrace == null || bodyGrace.isNegative()) {
            throw new IllegalArgumentException("bodyGrace must be zero or more");
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive");
        }
    }
}
