package dev.hexaflow.adapters.http.limits;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.limit.RateLimit;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An app's limits as the admin API shows and takes them. A field left out is off; every mistake is refused with
 * a message naming the field.
 */
public final class LimitsJson {

    private static final Set<String> FIELDS = Set.of("rate_per_key", "rate_per_end_user", "active_runs",
            "active_runs_per_end_user", "queued_runs", "budgets", "on_crossing", "time_zone");

    private LimitsJson() {
    }

    public static Map<String, Object> of(AppLimits limits) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("rate_per_key", limits.perKey().map(LimitsJson::rate).orElse(null));
        body.put("rate_per_end_user", limits.perEndUser().map(LimitsJson::rate).orElse(null));
        body.put("active_runs", limits.activeRuns());
        body.put("active_runs_per_end_user", limits.activeRunsPerEndUser());
        body.put("queued_runs", limits.queuedRuns());
        List<Map<String, Object>> budgets = new ArrayList<>();
        for (Budget budget : limits.budgets()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("scope", budget.scope().name().toLowerCase(Locale.ROOT));
            item.put("period", budget.period().name().toLowerCase(Locale.ROOT));
            item.put("measure", budget.measure() == Budget.Measure.TOKENS ? "tokens" : "price");
            item.put("amount", budget.measure() == Budget.Measure.TOKENS ? (Object) budget.amount()
                    : (Object) (budget.amount() / 1_000_000.0));
            budgets.add(item);
        }
        body.put("budgets", budgets);
        body.put("on_crossing", limits.onCrossing().name().toLowerCase(Locale.ROOT));
        body.put("time_zone", limits.zone().getId());
        return body;
    }

    /** The limits a request's body sets. */
    public static AppLimits read(Map<String, Object> body) {
        for (String field : body.keySet()) {
            if (!FIELDS.contains(field)) {
                throw invalid("unknown field " + field + "; the fields are " + new java.util.TreeSet<>(FIELDS));
            }
        }
        if (count(body, "queued_runs") > 0) {
            throw invalid("queued_runs must be 0: a run past a limit of runs at once is refused at once; runs do not "
                    + "wait in a queue yet");
        }
        try {
            return new AppLimits(rate(body, "rate_per_key"), rate(body, "rate_per_end_user"),
                    count(body, "active_runs"), count(body, "active_runs_per_end_user"), count(body, "queued_runs"),
                    budgets(body.get("budgets")), onCrossing(body.get("on_crossing")), zone(body.get("time_zone")));
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    private static Map<String, Object> rate(RateLimit rate) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("per_minute", rate.perMinute());
        item.put("burst", rate.burst());
        return item;
    }

    private static Optional<RateLimit> rate(Map<String, Object> body, String field) {
        Object value = body.get(field);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof Map<?, ?> rate) || !Set.of("per_minute", "burst").containsAll(rate.keySet())) {
            throw invalid(field + " must be null or {\"per_minute\": N, \"burst\": N}");
        }
        int perMinute = whole(rate.get("per_minute"), field + ".per_minute");
        Object burst = rate.get("burst");
        int most = burst == null ? perMinute : whole(burst, field + ".burst");
        try {
            return Optional.of(new RateLimit(perMinute, most));
        } catch (IllegalArgumentException e) {
            throw invalid(field + ": " + e.getMessage());
        }
    }

    private static int count(Map<String, Object> body, String field) {
        Object value = body.get(field);
        int count = value == null ? 0 : whole(value, field);
        if (count < 0) {
            throw invalid(field + " must be 0 (no limit) or more, was " + count);
        }
        return count;
    }

    private static List<Budget> budgets(Object value) {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> items)) {
            throw invalid("budgets must be a list of {\"scope\", \"period\", \"measure\", \"amount\"}");
        }
        List<Budget> budgets = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            budgets.add(budget(items.get(i), "budgets[" + i + "]"));
        }
        return budgets;
    }

    private static Budget budget(Object value, String field) {
        if (!(value instanceof Map<?, ?> item)) {
            throw invalid(field + " must be an object with scope, period, measure and amount");
        }
        Budget.Scope scope = choice(Budget.Scope.class, item.get("scope"), field + ".scope");
        Budget.Period period = choice(Budget.Period.class, item.get("period"), field + ".period");
        Object measureName = item.get("measure") == null ? "tokens" : item.get("measure");
        boolean price = "price".equals(measureName);
        if (!price && !"tokens".equals(measureName)) {
            throw invalid(field + ".measure must be tokens or price");
        }
        if (!(item.get("amount") instanceof Number amount) || amount.doubleValue() <= 0) {
            throw invalid(field + ".amount must be a number above 0");
        }
        long counted = price ? Math.round(amount.doubleValue() * 1_000_000) : amount.longValue();
        if (!price && amount.doubleValue() != Math.rint(amount.doubleValue())) {
            throw invalid(field + ".amount must be a whole number of tokens");
        }
        return new Budget(scope, period, price ? Budget.Measure.PRICE_MICROS : Budget.Measure.TOKENS, counted);
    }

    private static AppLimits.OnCrossing onCrossing(Object value) {
        return value == null ? AppLimits.OnCrossing.STOP : choice(AppLimits.OnCrossing.class, value, "on_crossing");
    }

    private static ZoneId zone(Object value) {
        if (value == null) {
            return ZoneId.of("UTC");
        }
        try {
            return ZoneId.of(String.valueOf(value));
        } catch (DateTimeException e) {
            throw invalid("time_zone must be a time zone such as UTC or Europe/Berlin, was " + value);
        }
    }

    private static <E extends Enum<E>> E choice(Class<E> type, Object value, String field) {
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            names.add(constant.name().toLowerCase(Locale.ROOT));
            if (constant.name().equalsIgnoreCase(String.valueOf(value))) {
                return constant;
            }
        }
        throw invalid(field + " must be one of " + names + ", was " + value);
    }

    private static int whole(Object value, String field) {
        if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() > Integer.MAX_VALUE
                || ((Number) value).longValue() < Integer.MIN_VALUE) {
            throw invalid(field + " must be a whole number, was " + value);
        }
        return ((Number) value).intValue();
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiError.INVALID_PARAM, message);
    }
}
