package dev.hexaflow.application.limits.service;

import dev.hexaflow.domain.limit.Budget;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Where the spending of each budget is counted: one counter of {@link SharedCounts} per measure, holder and
 * period, named {@code tokens|app|<app>|day|2026-11-28}, {@code tokens|key|<app>|<key>|month|2026-11},
 * {@code price|user|<app>|<user>|day|...}; a period starts at midnight (or the month's first) in the app's zone.
 */
public final class BudgetBook {

    private final SharedCounts counts;

    public BudgetBook(SharedCounts counts) {
        this.counts = counts;
    }

    /** How many hex digits of a key's hash name it in its budgets: as many as the key listing's id shows. */
    static final int KEY_ID_LENGTH = 12;

    /** A key's id as its budgets name it: the listing's, from a caller's longer one or from the key's hash. */
    static String keyHolder(String keyId) {
        return keyId.length() > KEY_ID_LENGTH ? keyId.substring(0, KEY_ID_LENGTH) : keyId;
    }

    /** One period of a budget: its counter's key suffix and the instant the next period starts. */
    public record Span(String start, ZonedDateTime resetsAt) {

        public long endsAtMillis() {
            return resetsAt.toInstant().toEpochMilli();
        }
    }

    public static Span span(Budget.Period period, ZoneId zone, Instant now) {
        LocalDate today = now.atZone(zone).toLocalDate();
        if (period == Budget.Period.DAY) {
            return new Span("day|" + today, today.plusDays(1).atStartOfDay(zone));
        }
        LocalDate first = today.withDayOfMonth(1);
        return new Span("month|" + first.toString().substring(0, 7), first.plusMonths(1).atStartOfDay(zone));
    }

    /** The holder's counter key: {@code holder} is the app id, {@code <app>|<key id>} or {@code <app>|<user>}. */
    static String key(Budget.Measure measure, Budget.Scope scope, String holder, Span span) {
        String scopeName = switch (scope) {
            case APP -> "app";
            case KEY -> "key";
            case END_USER -> "user";
        };
        return (measure == Budget.Measure.TOKENS ? "tokens" : "price") + "|" + scopeName + "|" + holder + "|"
                + span.start();
    }

    /** What the holder spent of the budget's measure in the period {@code span}. */
    public long spent(Budget budget, String holder, Span span) {
        return counts.total(key(budget.measure(), budget.scope(), holder, span));
    }

    /** Counts {@code amount} of {@code measure} against the holder in both its periods. */
    void add(Budget.Measure measure, Budget.Scope scope, String holder, long amount, ZoneId zone, Instant now) {
        for (Budget.Period period : Budget.Period.values()) {
            Span span = span(period, zone, now);
            counts.add(key(measure, scope, holder, span), amount, span.endsAtMillis());
        }
    }

    /** "The end user's daily budget of 20000 tokens is spent; it resets at 2026-11-29T00:00:00+01:00." */
    public static String spentMessage(Budget budget, Span span) {
        String whose = switch (budget.scope()) {
            case APP -> "The app's";
            case KEY -> "The key's";
            case END_USER -> "The end user's";
        };
        String period = budget.period() == Budget.Period.DAY ? "daily" : "monthly";
        String amount = budget.measure() == Budget.Measure.TOKENS ? budget.amount() + " tokens"
                : BigDecimal.valueOf(budget.amount(), 6).stripTrailingZeros().toPlainString() + " in price";
        return whose + " " + period + " budget of " + amount + " is spent; it resets at "
                + span.resetsAt().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + ".";
    }
}
