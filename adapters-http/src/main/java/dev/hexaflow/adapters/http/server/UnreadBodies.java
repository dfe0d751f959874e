package dev.hexaflow.adapters.http.server;

import io.javalin.http.Context;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;

/** What is done with a request body that no handler read, so that the answer reaches the client. */
public final class UnreadBodies {

    /** How much of an unread body is read and dropped before the connection is closed instead. */
    static final long DRAIN_LIMIT_BYTES = 256L * 1024 * 1024;

    private UnreadBodies() {
    }

    /**
     * An answer given before the request body was read (a 413, an upload refused half way) reaches the client
     * only if the connection is not reset under it, and closing a socket with unread bytes resets it: so the rest
     * of the body is read and dropped first, up to a bound past which (or where it cannot be read) the answer
     * closes the connection.
     */
    public static void drain(Context ctx) {
        drain(ctx, DRAIN_LIMIT_BYTES);
    }

    /**
     * Ends the request with the answer already set, skipping the handlers left: the after-handler that drains an
     * unread body is skipped too, so the body is drained here (else Jetty drops the connection under the client's
     * next request on it, without a word).
     */
    public static void answerNow(Context ctx) {
        answerNow(ctx, DRAIN_LIMIT_BYTES);
    }

    /** As {@link #answerNow(Context)}, reading at most {@code limit} bytes before the connection is closed instead. */
    public static void answerNow(Context ctx, long limit) {
        drain(ctx, limit);
        ctx.skipRemainingHandlers();
    }

    /** As {@link #drain(Context)}, reading at most {@code limit} bytes before the connection is closed instead. */
    public static void drain(Context ctx, long limit) {
        if (ctx.req().getContentLengthLong() < 0 && ctx.req().getHeader("Transfer-Encoding") == null) {
            return; // A request with neither header has no body (RFC 9112, 6.3): nothing is left to read.
        }
        boolean drained = false;
        try {
            ServletInputStream in = ctx.req().getInputStream();
            if (in.isFinished()) {
                return; // Read to its end already, as the body of almost every request is.
            }
            byte[] buffer = new byte[16 * 1024];
            long left = limit;
            int read = 0;
            while (left > 0 && (read = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0) {
                left -= read;
            }
            drained = read < 0 || in.isFinished();
        } catch (IOException | RuntimeException e) {
            // A multipart parser that gave up holds the stream: the rest cannot be read here.
        }
        if (!drained) {
            // Jetty will drop this connection; the answer says so, lest the client send its next request on it.
            ctx.header("Connection", "close");
        }
    }
}
