package dev.hexaflow.application.triggers.service;

import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.domain.trigger.Trigger;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts a trigger's run through the runs context, as any run starts (kept, listed, metered, its completion webhook
 * sent); the end user is named after the kind of trigger, as Dify names its trigger end users by their type.
 */
public final class TriggerRuns {

    private final AtomicReference<RunWorkflowUseCase> runs = new AtomicReference<>();

    /** The runs context, once it is made (it is made after the publications that tell this context). */
    public void runWith(RunWorkflowUseCase useCase) {
        runs.set(useCase);
    }

    RunUnderWay start(Trigger trigger, Map<String, Object> inputs) {
        RunWorkflowUseCase useCase = runs.get();
        if (useCase == null) {
            throw new IllegalStateException("triggers start runs once the server serves runs");
        }
        return useCase.start(RunWorkflowCommand.triggered(trigger.appId(), trigger.nodeId(), userOf(trigger),
                inputs), RunObserver.NONE);
    }

    static String userOf(Trigger trigger) {
        return trigger.kind().triggeredFrom() + "-trigger";
    }
}
