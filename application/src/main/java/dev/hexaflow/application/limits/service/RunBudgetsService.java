package dev.hexaflow.application.limits.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase;
import dev.hexaflow.application.runs.port.out.RunBudgets;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.limit.TokenPrice;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.workflow.engine.RunListener;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses a run whose app, key or end user has spent a budget, and counts every model call's reported tokens (and
 * their price, where one is configured) as the run's nodes finish, all in memory. The tokens are counted whether
 * or not the app has budgets (a few additions a call), so that a budget set later sees the period's spending.
 * A run that crosses a budget of an app whose {@code on_crossing} is {@code stop} fails once the model call that
 * crossed it has ended, before its next node: the usage arrives with the call's end, not with its chunks.
 */
public final class RunBudgetsService implements RunBudgets {

    private final ManageLimitsUseCase limits;
    private final BudgetBook book;
    private final TokenPrice price;
    private final Clock clock;

    public RunBudgetsService(ManageLimitsUseCase limits, SharedCounts counts, TokenPrice price, Clock clock) {
        this.limits = limits;
        this.book = new BudgetBook(counts);
        this.price = price;
        this.clock = clock;
    }

    @Override
    public RunListener admit(BudgetedRun run) {
        AppLimits app = limits.effective(run.appId());
        spentBudget(run, app, clock.instant()).ifPresent(message -> {
            throw new ApiException(ApiError.BUDGET_EXCEEDED, message);
        });
        return new Spending(run)::on;
    }

    /** The message of the first budget of the run's holders that is spent, if one is. */
    private Optional<String> spentBudget(BudgetedRun run, AppLimits app, Instant now) {
        for (Budget budget : app.budgets()) {
            String holder = holder(budget.scope(), run);
            if (holder == null) {
                continue;
            }
            BudgetBook.Span span = BudgetBook.span(budget.period(), app.zone(), now);
            if (book.spent(budget, holder, span) >= budget.amount()) {
                return Optional.of(BudgetBook.spentMessage(budget, span));
            }
        }
        return Optional.empty();
    }

    /** Whose counter a budget of {@code scope} reads for the run; null for a key budget of a run with no key. */
    private static String holder(Budget.Scope scope, BudgetedRun run) {
        return switch (scope) {
            case APP -> run.appId();
            case KEY -> run.keyId() == null ? null : run.appId() + "|" + BudgetBook.keyHolder(run.keyId());
            case END_USER -> run.endUser() == null ? null : run.appId() + "|" + run.endUser();
        };
    }

    /** One run's spending: counts each finished model call, and fails the run once it crosses a stopping budget. */
    private final class Spending {

        private final BudgetedRun run;
        /** The reason the run is to fail, kept until its handle takes it (a call may end before start returns). */
        private volatile String failing;

        Spending(BudgetedRun run) {
            this.run = run;
        }

        void on(RunEvent event) {
            if (failing != null) {
                failNow();
            }
            if (!(event instanceof RunEvent.NodeFinished finished)) {
                return;
            }
            long[] tokens = usage(finished.execution());
            if (tokens == null || tokens[0] + tokens[1] == 0) {
                return;
            }
            AppLimits app = limits.effective(run.appId());
            Instant now = clock.instant();
            count(Budget.Measure.TOKENS, tokens[0] + tokens[1], app, now);
            if (price.configured()) {
                count(Budget.Measure.PRICE_MICROS, price.micros(tokens[0], tokens[1]), app, now);
            }
            if (failing == null && app.onCrossing() == AppLimits.OnCrossing.STOP) {
                spentBudget(run, app, now).ifPresent(message -> {
                    failing = message;
                    failNow();
                });
            }
        }

        private void count(Budget.Measure measure, long amount, AppLimits app, Instant now) {
            for (Budget.Scope scope : Budget.Scope.values()) {
                String holder = holder(scope, run);
                if (holder != null) {
                    book.add(measure, scope, holder, amount, app.zone(), now);
                }
            }
        }

        private void failNow() {
            try {
                run.fail().accept(failing);
            } catch (RuntimeException notYetStarted) {
                // The run's handle is not yet known: the next event fails it.
            }
        }
    }

    /**
     * The prompt and completion tokens a node execution reports: model nodes keep Dify's usage map in their process
     * data (llm, agent) or their outputs (question-classifier's {@code usage}, parameter-extractor's
     * {@code __usage}); null for a node with none.
     */
    static long[] usage(NodeExecution execution) {
        Map<?, ?> usage = map(execution.processData(), "usage");
        if (usage == null) {
            usage = map(execution.outputs(), "usage");
        }
        if (usage == null) {
            usage = map(execution.outputs(), "__usage");
        }
        return usage == null ? null : new long[] {number(usage, "prompt_tokens"), number(usage, "completion_tokens")};
    }

    private static Map<?, ?> map(Map<String, Object> values, String key) {
        return values != null && values.get(key) instanceof Map<?, ?> found ? found : null;
    }

    private static long number(Map<?, ?> usage, String key) {
        return usage.get(key) instanceof Number value ? Math.max(0, value.longValue()) : 0;
    }
}
