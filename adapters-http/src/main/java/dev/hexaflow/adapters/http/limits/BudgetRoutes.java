package dev.hexaflow.adapters.http.limits;

import dev.hexaflow.adapters.http.admin.AdminAuthorization;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.limits.port.in.ReadBudgetsUseCase;
import dev.hexaflow.application.limits.port.in.ReadBudgetsUseCase.BudgetLeft;
import dev.hexaflow.application.limits.port.in.ReadBudgetsUseCase.BudgetsQuery;
import dev.hexaflow.domain.limit.Budget;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What is left of an app's budgets: for the operator, the app's and those of a key or an end user named in the
 * query; for a caller of the Service API (Hexaflow's extension), the app's, its own key's and the end user's.
 */
public final class BudgetRoutes implements RouteGroup {

    private final AdminAuthorization admin;
    private final ReadBudgetsUseCase budgets;

    public BudgetRoutes(AdminAuthorization admin, ReadBudgetsUseCase budgets) {
        this.admin = admin;
        this.budgets = budgets;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/apps/{app_id}/budgets", admin.require(ctx -> answer(ctx, ctx.pathParam("app_id"),
                new BudgetsQuery(ctx.pathParam("app_id"), blankless(ctx.queryParam("key")),
                        blankless(ctx.queryParam("user"))))));
        routes.get("/v1/budgets", ctx -> {
            String appId = ServiceApiAuthentication.appId(ctx);
            String user = ServiceApiAuthentication.user(ctx, blankless(ctx.queryParam("user")));
            answer(ctx, appId, new BudgetsQuery(appId, ServiceApiAuthentication.keyId(ctx), user));
        }, Access.DESCRIBE);
    }

    /** {@code {app_id, budgets: [{scope, holder, period, measure, amount, spent, remaining, resets_at}]}}. */
    private void answer(Context ctx, String appId, BudgetsQuery query) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (BudgetLeft left : budgets.budgets(query)) {
            Budget budget = left.budget();
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("scope", budget.scope().name().toLowerCase(Locale.ROOT));
            item.put("holder", left.holder());
            item.put("period", budget.period().name().toLowerCase(Locale.ROOT));
            boolean tokens = budget.measure() == Budget.Measure.TOKENS;
            item.put("measure", tokens ? "tokens" : "price");
            item.put("amount", amount(tokens, budget.amount()));
            item.put("spent", amount(tokens, left.spent()));
            item.put("remaining", amount(tokens, left.remaining()));
            item.put("resets_at", left.resetsAt().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
            items.add(item);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("app_id", appId);
        body.put("budgets", items);
        ctx.status(200).contentType("application/json").result(JsonResponses.json(body));
    }

    /** Tokens as a whole number; a price in the model's currency, as the limits show it. */
    private static Object amount(boolean tokens, long counted) {
        return tokens ? (Object) counted : (Object) (counted / 1_000_000.0);
    }

    private static String blankless(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
