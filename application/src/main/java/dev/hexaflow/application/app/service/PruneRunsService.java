package dev.hexaflow.application.app.service;

import dev.hexaflow.application.app.port.in.PruneRunsUseCase;
import dev.hexaflow.application.app.port.out.RunRepository;
import dev.hexaflow.domain.app.RunRetention;
import java.time.Clock;

/** Prunes batch after batch until a batch finds less than it may delete. */
public final class PruneRunsService implements PruneRunsUseCase {

    /** Runs deleted in one transaction: a few milliseconds of the run writer's wait at most. */
    static final int BATCH = 500;

    private final RunRepository runs;
    private final RunRetention retention;
    private final Clock clock;

    public PruneRunsService(RunRepository runs, RunRetention retention, Clock clock) {
        this.runs = runs;
        this.retention = retention;
        this.clock = clock;
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
            deleted = runs.prune(pruning);
            total += deleted;
        } while (deleted == BATCH);
        return total;
    }
}
