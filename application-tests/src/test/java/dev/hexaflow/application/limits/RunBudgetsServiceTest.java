package dev.hexaflow.application.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppLimitsRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.limits.port.in.ReadBudgetsUseCase.BudgetLeft;
import dev.hexaflow.application.limits.port.in.ReadBudgetsUseCase.BudgetsQuery;
import dev.hexaflow.application.limits.service.ManageLimitsService;
import dev.hexaflow.application.limits.service.ReadBudgetsService;
import dev.hexaflow.application.limits.service.RunBudgetsService;
import dev.hexaflow.application.limits.service.SharedCounts;
import dev.hexaflow.application.runs.port.out.RunBudgets.BudgetedRun;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.limit.TokenPrice;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.workflow.engine.RunListener;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The budgets' use cases on the in-memory adapters: a model call's usage counted against the app, the key and the
 * end user by day and month in the app's zone; a run over a budget refused naming it and its reset; a crossing run
 * failed with that reason under {@code stop} and left alone under {@code finish}; a price counted in millionths.
 */
class RunBudgetsServiceTest {

    /** 23:30 in Berlin on 28 November 2026: the Berlin day ends in half an hour, UTC's in an hour and a half. */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-28T22:30:00Z"), ZoneOffset.UTC);

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final ManageLimitsService limits = new ManageLimitsService(new InMemoryAppLimitsRepository(), apps,
            AppLimits.NONE);
    private final SharedCounts counts = new SharedCounts();
    private final RunBudgetsService budgets = new RunBudgetsService(limits, counts, new TokenPrice(2.5, 10),
            CLOCK);
    private final ReadBudgetsService read = new ReadBudgetsService(limits, counts, CLOCK);
    private final List<String> failures = new ArrayList<>();

    @Test
    void aCallsTokensAreCountedForTheAppTheKeyAndTheEndUserInTheAppsDayAndMonth() {
        apps.add(ManageLimitsServiceTest.app("app-1"));
        limits.set("app-1", limits(AppLimits.OnCrossing.STOP, new Budget(Budget.Scope.END_USER, Budget.Period.DAY,
                Budget.Measure.TOKENS, 1000)));
        budgets.admit(run("key-a", "ada")).on(modelCall(70, 30));

        assertThat(counts.total("tokens|app|app-1|day|2026-11-28")).isEqualTo(100);
        assertThat(counts.total("tokens|key|app-1|key-a|month|2026-11")).isEqualTo(100);
        assertThat(counts.total("tokens|user|app-1|ada|day|2026-11-28")).isEqualTo(100);
        assertThat(counts.total("price|app|app-1|month|2026-11")).as("70 x 2.5 + 30 x 10 millionths")
                .isEqualTo(475);
        List<BudgetLeft> left = read.budgets(new BudgetsQuery("app-1", null, "ada"));
        assertThat(left).singleElement().satisfies(budget -> {
            assertThat(budget.spent()).isEqualTo(100);
            assertThat(budget.remaining()).isEqualTo(900);
            assertThat(budget.resetsAt().toString()).isEqualTo("2026-11-29T00:00+01:00[Europe/Berlin]");
        });
        assertThat(failures).isEmpty();
    }

    @Test
    void aRunCrossingAStoppingBudgetFailsWithItsReasonAndTheNextIsRefused() {
        apps.add(ManageLimitsServiceTest.app("app-1"));
        limits.set("app-1", limits(AppLimits.OnCrossing.STOP, new Budget(Budget.Scope.KEY, Budget.Period.MONTH,
                Budget.Measure.TOKENS, 150)));
        RunListener spending = budgets.admit(run("key-a", "ada"));
        spending.on(modelCall(70, 30));
        assertThat(failures).isEmpty();
        spending.on(modelCall(40, 20));

        String message = "The key's monthly budget of 150 tokens is spent; it resets at 2026-12-01T00:00:00+01:00.";
        assertThat(failures).containsExactly(message);
        assertThatThrownBy(() -> budgets.admit(run("key-a", "bob"))).isInstanceOfSatisfying(ApiException.class,
                refused -> {
                    assertThat(refused.error()).isEqualTo(ApiError.BUDGET_EXCEEDED);
                    assertThat(refused.getMessage()).isEqualTo(message);
                });
        assertThat(budgets.admit(run("key-b", "ada"))).as("another key's runs go on").isNotNull();
        assertThat(budgets.admit(run(null, "ada"))).as("a run with no key has no key budget").isNotNull();
    }

    @Test
    void aRunCrossingAFinishingBudgetEndsAndAPriceBudgetCountsMillionths() {
        apps.add(ManageLimitsServiceTest.app("app-1"));
        limits.set("app-1", limits(AppLimits.OnCrossing.FINISH, new Budget(Budget.Scope.APP, Budget.Period.DAY,
                Budget.Measure.PRICE_MICROS, 500)));
        RunListener spending = budgets.admit(run("key-a", "ada"));
        spending.on(modelCall(70, 30));
        spending.on(modelCall(70, 30));

        assertThat(failures).isEmpty();
        assertThatThrownBy(() -> budgets.admit(run("key-b", "bob"))).hasMessage("The app's daily budget of 0.0005 in"
                + " price is spent; it resets at 2026-11-29T00:00:00+01:00.");
        assertThat(read.budgets(new BudgetsQuery("app-1", null, null))).singleElement()
                .satisfies(budget -> assertThat(budget.spent()).isEqualTo(950));
    }

    private BudgetedRun run(String keyId, String user) {
        return new BudgetedRun("app-1", keyId, user, failures::add);
    }

    private static AppLimits limits(AppLimits.OnCrossing onCrossing, Budget budget) {
        return new AppLimits(Optional.empty(), Optional.empty(), 0, 0, 0, List.of(budget), onCrossing,
                ZoneId.of("Europe/Berlin"));
    }

    private static RunEvent modelCall(long prompt, long completion) {
        Map<String, Object> usage = Map.of("prompt_tokens", prompt, "completion_tokens", completion,
                "total_tokens", prompt + completion);
        return new RunEvent.NodeFinished(new NodeExecution("exec", "llm", NodeType.LLM, "LLM", 1, null, Map.of(),
                Map.of("usage", usage), Map.of("text", "fine"), NodeStatus.SUCCEEDED, null, 0.1, null, 0, 1L));
    }
}
