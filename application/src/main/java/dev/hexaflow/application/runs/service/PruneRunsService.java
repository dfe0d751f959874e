package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.in.PruneRunsUseCase;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.RunRetention;
import java.time.Clock;

/**
 * Prunes batch after batch until a batch finds less than it may delete, resting after each batch as long as it
 * took: runs being kept meanwhile share the store with the prune, instead of queueing behind it batch after batch
 * (a backlog of 900,000 runs kept other runs waiting half a second at the 99th percentile without the rests).
 */
public final class PruneRunsService implements PruneRunsUseCase {

    /** Runs deleted in one transaction: a few milliseconds of the run writer's wait at most. */
    static final int BATCH = 200;

    private final RunRepository runs;
    private final RunRetention retention;
    private final Clock clock;

    public PruneRunsService(RunRepository runs, RunRetention retention, Clock clock) {
        this.runs = runs;
        this.retention = retention;
        this.clock = clock;
    }

    /** Rests as long as the batch took; false when interrupted (the server stops), which ends the prune. */
    private static boolean rest(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public int prune() {
        if (!retention.prunes()) {
            return 0;
        }
        RunRepository.Pruning pruning = new RunRepository.Pruning(retention.createdBefore(clock.instant())
                .orElse(null), retention.keepPerApp().isPresent() ? retention.keepPerApp().getAsInt() : null, BATCH);
        int total = 0;
        int deleted;
        do {
            long began = System.nanoTime();
            deleted = runs.prune(pruning);
            total += deleted;
            if (deleted == BATCH && !rest(System.nanoTime() - began)) {
                break;
            }
        } while (deleted == BATCH);
        return total;
    }

    @Override
    public int foldIntoRecords() {
        int total = 0;
        int folded;
        do {
            long began = System.nanoTime();
            folded = runs.foldIntoRecords(BATCH);
            total += folded;
            if (folded == BATCH && !rest(System.nanoTime() - began)) {
                break;
            }
        } while (folded == BATCH);
        return total;
    }
}
