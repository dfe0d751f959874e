package dev.hexaflow.application.limits.port.in;

import dev.hexaflow.domain.limit.Budget;
import java.time.ZonedDateTime;
import java.util.List;

/** What is left of an app's budgets: the app's own, and those of one key or one end user when named. */
public interface ReadBudgetsUseCase {

    /**
     * @throws dev.hexaflow.application.common.ApiException NOT_FOUND when there is no such app
     */
    List<BudgetLeft> budgets(BudgetsQuery query);

    /**
     * @param key  one of the app's keys, as its id (the start of its hash the key listing shows) or whole; or null
     * @param user an end user's id, or null
     */
    record BudgetsQuery(String appId, String key, String user) {
    }

    /**
     * One budget in its current period: what was spent (as far as this instance knows: the store's count at the
     * last exchange and what it counted since), what is left (never below 0) and when the next period starts.
     *
     * @param holder the key's id or the end user's id the budget counts for; the app's id for an app budget
     */
    record BudgetLeft(Budget budget, String holder, long spent, long remaining, ZonedDateTime resetsAt) {
    }
}
