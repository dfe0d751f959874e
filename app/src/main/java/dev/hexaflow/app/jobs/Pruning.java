package dev.hexaflow.app.jobs;

import dev.hexaflow.application.runs.port.in.PruneRunsUseCase;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.webhooks.port.in.DeliverCallbacksUseCase;
import dev.hexaflow.domain.app.RunRetention;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prunes now and then every {@link #EVERY}, on a thread of its own: the idempotency keys past their day and the
 * ended webhook deliveries always, the runs if the retention lets them go; and rewrites the ended runs kept row by
 * row (streamed, or kept before runs were records) as records.
 */
public final class Pruning implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pruning.class);
    static final Duration EVERY = Duration.ofMinutes(10);

    private final IdempotencyKeyRepository idempotencyKeys;
    private final DeliverCallbacksUseCase deliveries;
    private final PruneRunsUseCase runs;
    private final RunRetention retention;
    private final Clock clock;
    private final ScheduledExecutorService pruner = DaemonThreads.scheduler("hexaflow-prune");

    public Pruning(IdempotencyKeyRepository idempotencyKeys, DeliverCallbacksUseCase deliveries, PruneRunsUseCase runs,
            RunRetention retention, Clock clock) {
        this.idempotencyKeys = idempotencyKeys;
        this.deliveries = deliveries;
        this.runs = runs;
        this.retention = retention;
        this.clock = clock;
    }

    public void start() {
        pruner.scheduleWithFixedDelay(this::pruneKeysAndDeliveries, 0, EVERY.toSeconds(), TimeUnit.SECONDS);
        pruner.scheduleWithFixedDelay(this::foldRuns, 0, EVERY.toSeconds(), TimeUnit.SECONDS);
        if (retention.prunes()) {
            pruner.scheduleWithFixedDelay(this::pruneRuns, 0, EVERY.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private void pruneKeysAndDeliveries() {
        try {
            idempotencyKeys.prune(clock.instant().minus(RunWorkflowService.KEY_WINDOW).getEpochSecond());
            deliveries.prune();
        } catch (RuntimeException e) {
            LOG.warn("Pruning idempotency keys and ended webhook deliveries failed; the next try is in {} "
                    + "minutes: {}", EVERY.toMinutes(), e.toString());
        }
    }

    private void pruneRuns() {
        try {
            int pruned = runs.prune();
            if (pruned > 0) {
                LOG.info("Pruned {} ended runs past their retention", pruned);
            }
        } catch (RuntimeException e) {
            LOG.warn("Pruning runs failed; the next try is in {} minutes: {}", EVERY.toMinutes(), e.toString());
        }
    }

    /** Streamed runs, and those kept before runs were records, become records as they end. */
    private void foldRuns() {
        try {
            int folded = runs.foldIntoRecords();
            if (folded > 0) {
                LOG.info("Rewrote {} ended runs kept row by row as records", folded);
            }
        } catch (RuntimeException e) {
            LOG.warn("Rewriting ended runs as records failed; the next try is in {} minutes: {}", EVERY.toMinutes(),
                    e.toString());
        }
    }

    @Override
    public void close() {
        pruner.shutdownNow();
    }
}
