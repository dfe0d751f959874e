package dev.hexaflow.app.config;

import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.Budget;
import dev.hexaflow.domain.limit.RateLimit;
import dev.hexaflow.domain.limit.TokenPrice;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The limits every app has until an operator sets its own (HEXAFLOW_LIMIT_*; all off by default, as Dify has
 * none), how often this instance exchanges its counts with the store (HEXAFLOW_LIMITS_SYNC_MILLIS: the limits'
 * error across instances is one interval's counting), and what the model charges per million tokens
 * (HEXAFLOW_LLM_PRICE_INPUT_PER_MILLION and _OUTPUT_: what price budgets count; none by default).
 */
public record LimitSettings(AppLimits defaults, Duration sync, TokenPrice price) {

    static final int FEWEST_SYNC_MILLIS = 50;
    static final int MOST_SYNC_MILLIS = 60_000;

    public static final LimitSettings DEFAULTS = new LimitSettings(AppLimits.NONE, Duration.ofMillis(500));

    /** With no price configured. */
    public LimitSettings(AppLimits defaults, Duration sync) {
        this(defaults, sync, TokenPrice.NONE);
    }

    public LimitSettings {
        if (defaults == null || price == null) {
            throw new UsageException("the default limits must not be empty");
        }
        if (sync.toMillis() < FEWEST_SYNC_MILLIS || sync.toMillis() > MOST_SYNC_MILLIS) {
            throw new UsageException("HEXAFLOW_LIMITS_SYNC_MILLIS must be between " + FEWEST_SYNC_MILLIS + " and "
                    + MOST_SYNC_MILLIS + ", was " + sync.toMillis());
        }
    }

    public static LimitSettings fromEnvironment(Map<String, String> env) {
        int activeRuns = count(env, "HEXAFLOW_LIMIT_ACTIVE_RUNS", 0);
        int activeRunsPerEndUser = count(env, "HEXAFLOW_LIMIT_ACTIVE_RUNS_PER_END_USER", 0);
        int queuedRuns = count(env, "HEXAFLOW_LIMIT_QUEUED_RUNS", 0);
        if (queuedRuns > 0) {
            throw new UsageException("HEXAFLOW_LIMIT_QUEUED_RUNS must be 0: a run past a limit of runs at once is "
                    + "refused at once; runs do not wait in a queue yet");
        }
        AppLimits defaults = new AppLimits(rate(env, "HEXAFLOW_LIMIT_RATE_PER_KEY"),
                rate(env, "HEXAFLOW_LIMIT_RATE_PER_END_USER"), activeRuns, activeRunsPerEndUser, queuedRuns,
                budgets(env, "HEXAFLOW_LIMIT_BUDGETS"), onCrossing(env, "HEXAFLOW_LIMIT_ON_CROSSING"),
                zone(env, "HEXAFLOW_LIMIT_TIME_ZONE"));
        return new LimitSettings(defaults, Duration.ofMillis(count(env, "HEXAFLOW_LIMITS_SYNC_MILLIS", 500)),
                new TokenPrice(price(env, "HEXAFLOW_LLM_PRICE_INPUT_PER_MILLION"),
                        price(env, "HEXAFLOW_LLM_PRICE_OUTPUT_PER_MILLION")));
    }

    /** A price per million tokens: a decimal, 0 or more; 0 when unset. */
    private static double price(Map<String, String> env, String name) {
        String text = text(env, name);
        if (text == null) {
            return 0;
        }
        try {
            double price = Double.parseDouble(text);
            if (price >= 0 && !Double.isInfinite(price)) {
                return price;
            }
        } catch (NumberFormatException e) {
            // Refused below, as a negative price is.
        }
        throw new UsageException(name + " must be a price per million tokens, 0 or more (such as 0.15), was '"
                + text + "'");
    }

    /** {@code PER_MINUTE/BURST}, or {@code PER_MINUTE} alone for a burst as large. */
    private static Optional<RateLimit> rate(Map<String, String> env, String name) {
        String text = text(env, name);
        if (text == null) {
            return Optional.empty();
        }
        String[] parts = text.split("/", -1);
        if (parts.length > 2) {
            throw new UsageException(name + " must be PER_MINUTE/BURST such as 60/10, was '" + text + "'");
        }
        int perMinute = whole(parts[0], name, text);
        int burst = parts.length == 2 ? whole(parts[1], name, text) : perMinute;
        try {
            return Optional.of(new RateLimit(perMinute, burst));
        } catch (IllegalArgumentException e) {
            throw new UsageException(name + ": " + e.getMessage());
        }
    }

    /** {@code SCOPE:PERIOD:MEASURE:AMOUNT}, separated by commas, such as {@code app:month:tokens:5000000}. */
    private static List<Budget> budgets(Map<String, String> env, String name) {
        String text = text(env, name);
        if (text == null) {
            return List.of();
        }
        List<Budget> budgets = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            String[] parts = item.strip().split(":", -1);
            if (parts.length != 4) {
                throw new UsageException(name + " must be SCOPE:PERIOD:MEASURE:AMOUNT items separated by commas, "
                        + "such as app:month:tokens:5000000, was '" + item.strip() + "'");
            }
            Budget.Scope scope = choice(Budget.Scope.class, parts[0], name + " scope");
            Budget.Period period = choice(Budget.Period.class, parts[1], name + " period");
            budgets.add(budget(scope, period, parts[2].strip(), parts[3].strip(), name));
        }
        return budgets;
    }

    private static Budget budget(Budget.Scope scope, Budget.Period period, String measure, String amount,
            String name) {
        BigDecimal value;
        try {
            value = new BigDecimal(amount);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " amount must be a number, was '" + amount + "'");
        }
        if (value.signum() <= 0) {
            throw new UsageException(name + " amount must be above 0, was " + amount);
        }
        try {
            return switch (measure.toLowerCase(Locale.ROOT)) {
                case "tokens" -> new Budget(scope, period, Budget.Measure.TOKENS, value.longValueExact());
                case "price" -> new Budget(scope, period, Budget.Measure.PRICE_MICROS,
                        value.movePointRight(6).setScale(0, RoundingMode.HALF_UP).longValueExact());
                default -> throw new UsageException(name + " measure must be tokens or price, was '" + measure
                        + "'");
            };
        } catch (ArithmeticException e) {
            throw new UsageException(name + " amount of tokens must be a whole number, was " + amount);
        }
    }

    private static AppLimits.OnCrossing onCrossing(Map<String, String> env, String name) {
        String text = text(env, name);
        return text == null ? AppLimits.OnCrossing.STOP : choice(AppLimits.OnCrossing.class, text, name);
    }

    private static ZoneId zone(Map<String, String> env, String name) {
        String text = text(env, name);
        try {
            return text == null ? AppLimits.NONE.zone() : ZoneId.of(text);
        } catch (DateTimeException e) {
            throw new UsageException(name + " must be a time zone such as UTC or Europe/Berlin, was '" + text + "'");
        }
    }

    private static int count(Map<String, String> env, String name, int otherwise) {
        String text = text(env, name);
        if (text == null) {
            return otherwise;
        }
        int count = whole(text, name, text);
        if (count < 0) {
            throw new UsageException(name + " must be 0 (no limit) or more, was " + count);
        }
        return count;
    }

    private static int whole(String part, String name, String text) {
        try {
            return Integer.parseInt(part.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a whole number, was '" + text + "'");
        }
    }

    private static <E extends Enum<E>> E choice(Class<E> type, String value, String name) {
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            names.add(constant.name().toLowerCase(Locale.ROOT));
            if (constant.name().equalsIgnoreCase(value.strip())) {
                return constant;
            }
        }
        throw new UsageException(name + " must be one of " + names + ", was '" + value.strip() + "'");
    }

    private static String text(Map<String, String> env, String name) {
        String text = env.get(name);
        return text == null || text.isBlank() ? null : text.strip();
    }
}
