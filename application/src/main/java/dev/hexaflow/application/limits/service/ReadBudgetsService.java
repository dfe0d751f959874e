package dev.hexaflow.application.limits.service;

import dev.hexaflow.application.limits.port.in.ManageLimitsUseCase;
import dev.hexaflow.application.limits.port.in.ReadBudgetsUseCase;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Each budget of the app left in its current period, read from this instance's view of the shared counts. */
public final class ReadBudgetsService implements ReadBudgetsUseCase {

    private final ManageLimitsUseCase limits;
    private final BudgetBook book;
    private final Clock clock;

    public ReadBudgetsService(ManageLimitsUseCase limits, SharedCounts counts, Clock clock) {
        this.limits = limits;
        this.book = new BudgetBook(counts);
        this.clock = clock;
    }

    @Override
    public List<BudgetLeft> budgets(BudgetsQuery query) {
        AppLimits app = limits.view(query.appId()).limits();
        String keyId = query.key() == null ? null : keyId(query.key());
        Instant now = clock.instant();
        List<BudgetLeft> left = new ArrayList<>();
        for (Budget budget : app.budgets()) {
            String holder = switch (budget.scope()) {
                case APP -> query.appId();
                case KEY -> keyId;
                case END_USER -> query.user();
            };
            if (holder == null) {
                continue;
            }
            String counted = budget.scope() == Budget.Scope.APP ? holder : query.appId() + "|" + holder;
            BudgetBook.Span span = BudgetBook.span(budget.period(), app.zone(), now);
            long spent = book.spent(budget, counted, span);
            left.add(new BudgetLeft(budget, holder, spent, Math.max(0, budget.amount() - spent), span.resetsAt()));
        }
        return left;
    }

    /** A key given whole is named by the start of its hash, as the key listing names it. */
    private static String keyId(String key) {
        return BudgetBook.keyHolder(AppKey.looksLikeKey(key) ? SecretHash.of(key).hex() : key);
    }
}
