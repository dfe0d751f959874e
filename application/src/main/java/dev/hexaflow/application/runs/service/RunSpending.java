package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.out.RunBudgets;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunListener;

/**
 * A run as its budgets see it: admitted (or refused) before it starts, its events counted as it goes, and failed
 * through its handle when it crosses a budget that stops runs.
 */
final class RunSpending implements RunListener {

    private final RunListener counting;
    private volatile RunHandle handle;

    private RunSpending(RunBudgets budgets, String appId, String keyId, String user) {
        this.counting = budgets.admit(new RunBudgets.BudgetedRun(appId, keyId, user, this::fail));
    }

    /** @throws dev.hexaflow.application.common.ApiException BUDGET_EXCEEDED when a budget is spent */
    static RunSpending admit(RunBudgets budgets, String appId, String keyId, String user) {
        return new RunSpending(budgets, appId, keyId, user);
    }

    /** The run is under way: a crossing from now on fails it. */
    RunHandle started(RunHandle started) {
        this.handle = started;
        return started;
    }

    @Override
    public void on(RunEvent event) {
        counting.on(event);
    }

    private void fail(String reason) {
        RunHandle started = handle;
        if (started == null) {
            // Its budgets ask again at the run's next event, once its handle is known.
            throw new IllegalStateException("the run has not started yet");
        }
        started.fail(reason);
    }
}
