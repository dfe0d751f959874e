package dev.hexaflow.app.jobs;

import dev.hexaflow.application.webhooks.port.in.DeliverCallbacksUseCase;
import dev.hexaflow.domain.webhook.RetrySchedule;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends webhook deliveries: looks for due ones every poll (and at once when a run with one ends, {@link
 * #deliverSoon()}), and for deliveries whose run ended unheard every {@link #SWEEP}. The posts themselves run on
 * {@link #senders()}, so that a slow receiver holds up only its own delivery.
 */
public final class WebhookDelivery implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookDelivery.class);
    /**
     * How many webhook posts run at once; an app has at most half of them, a receiver an eighth. Posts wait on the
     * network, not the processor: sixteen threads cost little, and eight receivers that never answer are needed
     * to hold every one.
     */
    public static final int SENDERS = 16;
    /** How long closing waits for the posts under way to end and keep their outcome before the storage closes. */
    static final Duration SENDS_GRACE = Duration.ofSeconds(2);
    static final Duration SWEEP = Duration.ofSeconds(30);

    private final Duration poll;
    private final ScheduledExecutorService deliverer = DaemonThreads.scheduler("hexaflow-webhooks");
    /**
     * The deliverer claims no more deliveries than it has free senders, so the queue only bridges the moment
     * between a send's end being counted and its thread taking the next.
     */
    private final ExecutorService sends = new ThreadPoolExecutor(SENDERS, SENDERS, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(SENDERS), DaemonThreads.named("hexaflow-webhook-send"));
    private volatile DeliverCallbacksUseCase deliveries;

    /** Polled at least as often as the shortest retry wait, and every second at most. */
    public WebhookDelivery(RetrySchedule retries) {
        this.poll = Collections.min(List.of(Duration.ofSeconds(1), Collections.min(retries.delays())));
    }

    /** The threads the posts run on, which the delivery use case is made with. */
    public ExecutorService senders() {
        return sends;
    }

    /** The use case that claims and sends, made after {@link #senders()}; nothing is sent before it is set. */
    public void deliverWith(DeliverCallbacksUseCase deliveries) {
        this.deliveries = deliveries;
    }

    /**
     * Starts sending: first the sweep (deliveries whose run a restart ended), then whatever is due, pending ones a
     * previous process left included.
     */
    public void start() {
        deliverer.scheduleWithFixedDelay(() -> guarded("Sweeping webhook deliveries", deliveries::sweep), 0,
                SWEEP.toMillis(), TimeUnit.MILLISECONDS);
        deliverer.scheduleWithFixedDelay(() -> guarded("Delivering webhooks", deliveries::deliverDue),
                0, poll.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A run with a callback has ended: look for due deliveries now rather than at the next poll. */
    public void deliverSoon() {
        DeliverCallbacksUseCase current = deliveries;
        if (current == null) {
            return; // not wired yet: the first poll sends it
        }
        try {
            deliverer.execute(() -> guarded("Delivering webhooks", current::deliverDue));
        } catch (RejectedExecutionException e) {
            // Closing: the delivery is kept, and the next start sends it.
        }
    }

    private static void guarded(String what, IntSupplier task) {
        try {
            task.getAsInt();
        } catch (RuntimeException e) {
            LOG.warn("{} failed; the next try is at the next poll: {}", what, e.toString());
        }
    }

    /**
     * Stops claiming deliveries and gives the posts under way {@link #SENDS_GRACE} to end and keep their outcome;
     * one still waiting then is interrupted, and its claim runs out for the next start to send it again.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + SENDS_GRACE.toNanos();
        deliverer.shutdown();
        try {
            // The deliverer first, so that a poll under way has handed its claims to the senders before they stop.
            deliverer.awaitTermination(SENDS_GRACE.toNanos(), TimeUnit.NANOSECONDS);
            sends.shutdown();
            sends.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            deliverer.shutdownNow();
            sends.shutdownNow();
        }
    }
}
