package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.clients.schedule.CronUtilsCalendar;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiTriggerRepository;
import dev.hexaflow.app.config.TriggerSettings;
import dev.hexaflow.app.jobs.ScheduleTicks;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.PublicationHook;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.triggers.port.in.CallWebhookUseCase;
import dev.hexaflow.application.triggers.port.in.FireSchedulesUseCase;
import dev.hexaflow.application.triggers.port.in.ManageTriggersUseCase;
import dev.hexaflow.application.triggers.service.CallWebhookService;
import dev.hexaflow.application.triggers.service.FireSchedulesService;
import dev.hexaflow.application.triggers.service.ManageTriggersService;
import dev.hexaflow.application.triggers.service.TriggerRuns;
import dev.hexaflow.application.triggers.service.TriggerSync;
import dev.hexaflow.domain.id.TimeOrderedIds;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/**
 * The triggers context: the published workflows' triggers kept in step by the apps context's publications, the
 * operator's switches, the webhook door, and the schedules' poll ({@link ScheduleTicks}). It is made before the
 * apps context (which tells it of each publication) and starts runs once the runs context is made.
 */
public final class TriggersModule implements AutoCloseable {

    public final ManageTriggersUseCase manage;
    public final CallWebhookUseCase webhooks;
    public final FireSchedulesUseCase schedules;
    /** What the apps context tells of each workflow it publishes. */
    final PublicationHook sync;
    private final TriggerRuns runs = new TriggerRuns();
    private final ScheduleTicks ticks;

    TriggersModule(Jdbi jdbi, TriggerSettings settings, AppRepository apps, WorkflowVersionRepository versions,
            SecretGenerator secrets, Clock clock) {
        JdbiTriggerRepository triggers = new JdbiTriggerRepository(jdbi);
        CronUtilsCalendar calendar = new CronUtilsCalendar();
        this.sync = new TriggerSync(triggers, calendar, secrets, clock, new TimeOrderedIds());
        this.manage = new ManageTriggersService(apps, triggers, calendar, secrets, clock);
        this.webhooks = new CallWebhookService(triggers, versions, new YamlWorkflowDslReader(), runs);
        this.schedules = new FireSchedulesService(triggers, calendar, runs, clock, settings.lateAfter());
        this.ticks = new ScheduleTicks(schedules, settings.poll());
    }

    /**
     * The operator's use case alone, on a store no server serves: what the command line needs of the context (it
     * starts no run, so it needs no other).
     */
    public static ManageTriggersUseCase management(Jdbi jdbi, SecretGenerator secrets, Clock clock) {
        return new ManageTriggersService(new JdbiAppRepository(jdbi), new JdbiTriggerRepository(jdbi),
                new CronUtilsCalendar(), secrets, clock);
    }

    /** Triggers start their runs through the runs context's use case. */
    void runWith(RunWorkflowUseCase run) {
        runs.runWith(run);
    }

    /** Starts the schedules' poll, on a serving instance. */
    void start() {
        ticks.start();
    }

    @Override
    public void close() {
        ticks.close();
    }
}
