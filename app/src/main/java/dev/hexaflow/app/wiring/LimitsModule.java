package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppLimitsRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiLimitCounters;
import dev.hexaflow.app.jobs.LimitSync;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.limits.port.in.AdmitRequestUseCase;
import dev.hexaflow.application.limits.service.ActiveRunsService;
import dev.hexaflow.application.limits.service.AdmitRequestService;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import dev.hexaflow.application.limits.service.ReadBudgetsService;
import dev.hexaflow.application.limits.service.RunBudgetsService;
import dev.hexaflow.application.limits.service.SharedCounts;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.RateLimit;
import dev.hexaflow.domain.limit.TokenPrice;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The limits context: each app's limits (its own, or the server's defaults), this instance's view of the counts
 * all instances share, and the background exchange that keeps that view and the store in step.
 */
public final class LimitsModule implements AutoCloseable {

    public final ManageLimitsService manage;
    public final SharedCounts counts = new SharedCounts();
    /** Refuses runs over their budgets and counts what runs spend. */
    public final RunBudgetsService budgets;
    public final ReadBudgetsService readBudgets;
    /** Each app's runs under way, held under its limits on runs at once. */
    public final ActiveRunsService active;
    /**
     * Request rates per key, end user and campus key, in memory; where instances share the store, each holds its
     * share of every rate, the live instances being those whose counts the exchange brings.
     */
    public final AdmitRequestUseCase rates;
    private final LimitSync sync;

    /**
     * @param defaults  what every app without limits of its own has (HEXAFLOW_LIMIT_*)
     * @param syncEvery how often counts are exchanged with the store (HEXAFLOW_LIMITS_SYNC_MILLIS): the limits'
     *                  error across instances is one interval's
     * @param price     what the model charges per million tokens, which price budgets count
     * @param campus    the server's rate per campus key, if any
     * @param shared    whether other instances share the store (and so each rate)
     */
    public LimitsModule(Jdbi jdbi, AppRepository apps, AppLimits defaults, Duration syncEvery, TokenPrice price,
            String instance, Optional<RateLimit> campus, boolean shared, Clock clock) {
        this.manage = new ManageLimitsService(new JdbiAppLimitsRepository(jdbi), apps, defaults);
        // Without a price (TokenPrice.NONE), price budgets count nothing.
        this.budgets = new RunBudgetsService(manage, counts, price, Clock.systemUTC());
        this.readBudgets = new ReadBudgetsService(manage, counts, Clock.systemUTC());
        this.active = new ActiveRunsService(manage, counts);
        this.rates = new AdmitRequestService(manage, campus,
                shared ? AdmitRequestService.instancesOf(counts) : () -> 1, clock);
        this.sync = new LimitSync(counts, new JdbiLimitCounters(jdbi), manage, instance, syncEvery);
    }

    /** Reads the apps' limits and the shared counts, then exchanges them every interval: once the store is ready. */
    public void start() {
        manage.reload();
        sync.start();
    }

    @Override
    public void close() {
        counts.gauge(AdmitRequestService.INSTANCE_GAUGE).set(0); // the others take the whole rate back at once
        sync.close();
    }
}
