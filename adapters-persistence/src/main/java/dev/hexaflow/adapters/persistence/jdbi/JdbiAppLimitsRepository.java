package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.limits.port.out.AppLimitsRepository;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.limit.RateLimit;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** Each app's own limits in {@code app_limits}, as JSON text in the store's own names. */
public final class JdbiAppLimitsRepository implements AppLimitsRepository {

    private final Jdbi jdbi;
    private final String upsert;

    public JdbiAppLimitsRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.upsert = SqlDialect.of(jdbi).upsert("app_limits", "app_id", "app_id, limits, updated_at",
                ":app_id, :limits, :updated_at");
    }

    @Override
    public Optional<AppLimits> find(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT limits FROM app_limits WHERE app_id = :app_id")
                .bind("app_id", appId).mapTo(String.class).findOne()).map(JdbiAppLimitsRepository::limits);
    }

    @Override
    public Map<String, AppLimits> all() {
        Map<String, AppLimits> all = new LinkedHashMap<>();
        jdbi.useHandle(handle -> handle.createQuery("SELECT app_id, limits FROM app_limits ORDER BY app_id")
                .map((rs, ctx) -> Map.entry(rs.getString("app_id"), limits(rs.getString("limits"))))
                .forEach(entry -> all.put(entry.getKey(), entry.getValue())));
        return all;
    }

    @Override
    public void save(String appId, AppLimits limits) {
        jdbi.useHandle(handle -> handle.createUpdate(upsert).bind("app_id", appId)
                .bind("limits", JsonColumns.write(columns(limits)))
                .bind("updated_at", Instant.now().getEpochSecond()).execute());
    }

    @Override
    public void remove(String appId) {
        jdbi.useHandle(handle -> handle.createUpdate("DELETE FROM app_limits WHERE app_id = :app_id")
                .bind("app_id", appId).execute());
    }

    private static Map<String, Object> columns(AppLimits limits) {
        Map<String, Object> map = new LinkedHashMap<>();
        limits.perKey().ifPresent(rate -> map.put("per_key", rate(rate)));
        limits.perEndUser().ifPresent(rate -> map.put("per_end_user", rate(rate)));
        map.put("active_runs", limits.activeRuns());
        map.put("active_runs_per_end_user", limits.activeRunsPerEndUser());
        map.put("queued_runs", limits.queuedRuns());
        List<Map<String, Object>> budgets = new ArrayList<>();
        for (Budget budget : limits.budgets()) {
            budgets.add(Map.of("scope", budget.scope().name(), "period", budget.period().name(), "measure",
                    budget.measure().name(), "amount", budget.amount()));
        }
        map.put("budgets", budgets);
        map.put("on_crossing", limits.onCrossing().name());
        map.put("zone", limits.zone().getId());
        return map;
    }

    private static Map<String, Object> rate(RateLimit rate) {
        return Map.of("per_minute", rate.perMinute(), "burst", rate.burst());
    }

    @SuppressWarnings("unchecked")
    private static AppLimits limits(String text) {
        Map<String, Object> map = JsonColumns.readMap(text);
        List<Budget> budgets = new ArrayList<>();
        for (Object item : (List<Object>) map.getOrDefault("budgets", List.of())) {
            Map<String, Object> budget = (Map<String, Object>) item;
            budgets.add(new Budget(Budget.Scope.valueOf((String) budget.get("scope")),
                    Budget.Period.valueOf((String) budget.get("period")),
                    Budget.Measure.valueOf((String) budget.get("measure")),
                    ((Number) budget.get("amount")).longValue()));
        }
        return new AppLimits(rate(map.get("per_key")), rate(map.get("per_end_user")), number(map, "active_runs"),
                number(map, "active_runs_per_end_user"), number(map, "queued_runs"), budgets,
                AppLimits.OnCrossing.valueOf((String) map.getOrDefault("on_crossing", "STOP")),
                ZoneId.of((String) map.getOrDefault("zone", "UTC")));
    }

    @SuppressWarnings("unchecked")
    private static Optional<RateLimit> rate(Object value) {
        if (!(value instanceof Map)) {
            return Optional.empty();
        }
        Map<String, Object> rate = (Map<String, Object>) value;
        return Optional.of(new RateLimit(((Number) rate.get("per_minute")).intValue(),
                ((Number) rate.get("burst")).intValue()));
    }

    private static int number(Map<String, Object> map, String name) {
        Object value = map.get(name);
        return value instanceof Number number ? number.intValue() : 0;
    }
}
