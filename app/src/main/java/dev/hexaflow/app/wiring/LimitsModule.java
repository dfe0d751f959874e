package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppLimitsRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiLimitCounters;
import dev.hexaflow.app.jobs.LimitSync;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.limits.service.ActiveRunsService;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import dev.hexaflow.application.limits.service.SharedCounts;
import dev.hexaflow.domain.limit.AppLimits;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/**
 * The limits context: each app's limits (its own, or the server's defaults), this instance's view of the counts
 * all instances share, and the background exchange that keeps that view and the store in step.
 */
public final class LimitsModule implements AutoCloseable {

    /** How often counts are exchanged with the store: the limits' error across instances is one interval's. */
    static final Duration SYNC_EVERY = Duration.ofMillis(500);

    public final ManageLimitsService manage;
    public final SharedCounts counts = new SharedCounts();
    /** Each app's runs under way, held under its limits on runs at once. */
    public final ActiveRunsService active;
    private final LimitSync sync;

    public LimitsModule(Jdbi jdbi, AppRepository apps, AppLimits defaults, String instance) {
        this.manage = new ManageLimitsService(new JdbiAppLimitsRepository(jdbi), apps, defaults);
        this.active = new ActiveRunsService(manage, counts);
        this.sync = new LimitSync(counts, new JdbiLimitCounters(jdbi), manage, instance, SYNC_EVERY);
    }

    /** Reads the apps' limits and the shared counts, then exchanges them every interval: once the store is ready. */
    public void start() {
        manage.reload();
        sync.start();
    }

    @Override
    public void close() {
        sync.close();
    }
}
