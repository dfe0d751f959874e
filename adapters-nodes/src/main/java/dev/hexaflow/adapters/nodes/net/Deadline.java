package dev.hexaflow.adapters.nodes.net;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a socket when a wait on it lasts too long. A socket timeout would do the same, but the JDK then switches
 * the socket to non-blocking for good, and every later read that waits costs three system calls (a read that
 * finds nothing, a poll, the read) instead of one; a streamed answer waits once per piece.
 */
final class Deadline {

    private static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor(work -> {
        Thread thread = new Thread(work, "hexaflow-http-deadlines");
        thread.setDaemon(true);
        return thread;
    });
    private static final Deadline NONE = new Deadline();

    private volatile ScheduledFuture<?> timer;
    private volatile boolean passed;

    private Deadline() {
    }

    /** A deadline that closes {@code socket} after {@code wait}; none for a zero wait. */
    static Deadline closing(Closeable socket, Duration wait) {
        if (wait == null || wait.isZero() || wait.isNegative()) {
            return NONE;
        }
        Deadline deadline = new Deadline();
        deadline.timer = TIMERS.schedule(() -> {
            deadline.passed = true;
            try {
                socket.close();
            } catch (IOException e) {
                // Closed either way.
            }
        }, wait.toNanos(), TimeUnit.NANOSECONDS);
        return deadline;
    }

    /** Whether the wait lasted too long and the socket was closed for it. */
    boolean passed() {
        return passed;
    }

    /** Stops the deadline; false when it came first (its closing may be under way). */
    boolean cancel() {
        return timer == null || timer.cancel(false) && !passed;
    }
}
