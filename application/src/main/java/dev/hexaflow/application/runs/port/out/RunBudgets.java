package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.workflow.engine.RunListener;
import java.util.function.Consumer;

/**
 * What a run may spend of its app's token and price budgets: asked, in memory, before a run starts; the listener
 * it answers counts what the run's model calls report, on the run's thread, and fails the run when it crosses a
 * budget that stops runs.
 */
@FunctionalInterface
public interface RunBudgets {

    RunBudgets NONE = run -> RunListener.NONE;

    /**
     * @throws dev.hexaflow.application.common.ApiException BUDGET_EXCEEDED when a budget of the run's app, key or
     *         end user is spent
     */
    RunListener admit(BudgetedRun run);

    /**
     * A run as it is about to start.
     *
     * @param keyId the app key it came with, or null (a web page's token, a trigger, another app's tool node)
     * @param fail  fails the run with the reason given, once it is under way
     */
    record BudgetedRun(String appId, String keyId, String endUser, Consumer<String> fail) {
    }
}
