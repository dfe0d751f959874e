package dev.hexaflow.adapters.nodes.net;

import dev.hexaflow.workflow.engine.StopSignal;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A response body read against a deadline and a stop: the JDK client's timeout covers only the wait for the
 * headers, so a server that sends its body a byte a second would hold the reader for ever. At the deadline, or
 * when the run is stopped, the body is closed under the reader, whose read then fails saying why.
 */
final class BoundedBody extends FilterInputStream {

    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "hexaflow-body-deadline");
        thread.setDaemon(true);
        return thread;
    });

    private final Duration timeout;
    private final ScheduledFuture<?> deadline;
    private final AutoCloseable onStop;
    private volatile String cut;

    private BoundedBody(InputStream body, Duration timeout, StopSignal stop) {
        super(body);
        this.timeout = timeout;
        this.deadline = DEADLINES.schedule(() -> cut("did not finish within " + timeout.toSeconds() + " s"),
                timeout.toMillis(), TimeUnit.MILLISECONDS);
        this.onStop = stop.onStop(() -> cut("stopped"));
    }

    /** {@code body}, closed at {@code timeout} from now or at {@code stop}, whichever comes first. */
    static InputStream of(InputStream body, Duration timeout, StopSignal stop) {
        return new BoundedBody(body, timeout, stop);
    }

    private void cut(String reason) {
        cut = reason;
        try {
            super.close();
        } catch (IOException e) {
            // Closing is all that is wanted; the reader learns why from the reason.
        }
    }

    @Override
    public int read() throws IOException {
        try {
            return checked(super.read());
        } catch (IOException e) {
            throw reason(e);
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            return checked(super.read(buffer, offset, length));
        } catch (IOException e) {
            throw reason(e);
        }
    }

    private int checked(int read) throws IOException {
        if (cut != null) {
            throw new IOException("The response body " + cut);
        }
        return read;
    }

    private IOException reason(IOException e) {
        return cut == null ? e : new IOException("The response body " + cut, e);
    }

    @Override
    public void close() throws IOException {
        deadline.cancel(false);
        try {
            onStop.close();
        } catch (Exception e) {
            // A stop handle that cannot be let go changes nothing for the body.
        }
        super.close();
    }
}
