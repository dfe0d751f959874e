package dev.hexaflow.adapters.clients.schedule;

import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.hexaflow.application.triggers.port.out.CronCalendar;
import dev.hexaflow.domain.trigger.ScheduleSpec;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cron as Dify's croniter reads it, with cron-utils: five fields (minute, hour, day of month, month, day of week;
 * {@code L}, {@code W}, {@code #}, names, Sunday as 0 or 7), croniter's optional sixth field of seconds, and the
 * {@code @daily}-style shorthands. Times are the schedule's zone's wall-clock times: in an autumn overlap a daily
 * time fires once; a time a spring gap skips fires at the gap's end that day (as cron daemons do), not the next day.
 */
public final class CronUtilsCalendar implements CronCalendar {

    private static final Map<String, String> SHORTHANDS = Map.of("@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *", "@weekly", "0 0 * * 0", "@daily", "0 0 * * *", "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

    private static final int MOST_CACHED = 10_000;

    private final CronParser minutes = new CronParser(definition(false));
    private final CronParser seconds = new CronParser(definition(true));
    private final Map<String, Times> parsed = new ConcurrentHashMap<>();

    private static CronDefinition definition(boolean withSeconds) {
        CronDefinitionBuilder builder = CronDefinitionBuilder.defineCron();
        if (withSeconds) {
            builder = builder.withSeconds().and();
        }
        return builder.withMinutes().and().withHours().and()
                .withDayOfMonth().supportsL().supportsW().supportsLW().supportsQuestionMark().and()
                .withMonth().and()
                .withDayOfWeek().withValidRange(0, 7).withMondayDoWValue(1).supportsHash().supportsL()
                .supportsQuestionMark().and()
                .instance();
    }

    @Override
    public Instant next(ScheduleSpec schedule, Instant after) {
        Times times = times(schedule.cron());
        ZoneId zone = schedule.zone();
        Instant byZone = times.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant)
                .orElseThrow(() -> new IllegalArgumentException("'" + schedule.cron() + "' never fires"));
        Instant inGap = firstInGap(times, zone, after, byZone);
        return inGap != null && inGap.isBefore(byZone) ? inGap : byZone;
    }

    /**
     * The next wall-clock time after {@code after}, if it falls in a spring gap before {@code limit}: it is taken to
     * the gap's end (ZonedDateTime.of shifts it by the gap), where the zone-aware reading skips it to a later day.
     */
    private static Instant firstInGap(Times times, ZoneId zone, Instant after, Instant limit) {
        LocalDateTime wall = after.atZone(zone).toLocalDateTime();
        LocalDateTime end = limit.atZone(zone).toLocalDateTime();
        while (wall.isBefore(end)) {
            LocalDateTime next = times.nextExecution(wall.atZone(ZoneOffset.UTC)).map(ZonedDateTime::toLocalDateTime)
                    .orElse(null);
            if (next == null || !next.isBefore(end)) {
                return null;
            }
            if (zone.getRules().getValidOffsets(next).isEmpty()) {
                return ZonedDateTime.of(next, zone).toInstant();
            }
            wall = next;
        }
        return null;
    }

    private Times times(String cron) {
        Times known = parsed.get(cron);
        if (known != null) {
            return known;
        }
        parse(cron); // refuses a bad expression naming it whole
        Times times = new Times(apart(cron.strip()).stream().map(one -> ExecutionTime.forCron(parse(one)))
                .toList());
        if (parsed.size() < MOST_CACHED) {
            parsed.put(cron, times);
        }
        return times;
    }

    /**
     * The expression in parts cron-utils reads as croniter reads the whole, whose fire times together are the
     * expression's: a day of month and a day of week both given fire on either (croniter's {@code day_or}, as cron
     * daemons do; cron-utils would want both), and an {@code L} listed beside other days of the month
     * ({@code 1,15,L}, which Dify's monthly schedule makes of its last day, and whose {@code L} cron-utils drops)
     * is read one day at a time.
     */
    private static List<String> apart(String cron) {
        String[] fields = cron.split("\\s+");
        if (fields.length < 5) {
            return List.of(cron);
        }
        List<String[]> byDay = anyDay(fields[2]) || anyDay(fields[4]) ? List.<String[]>of(fields)
                : List.of(with(fields, 4, "*"), with(fields, 2, "*"));
        List<String> apart = new ArrayList<>();
        for (String[] part : byDay) {
            if (part[2].contains(",") && part[2].toUpperCase(Locale.ROOT).contains("L")) {
                for (String day : part[2].split(",")) {
                    apart.add(String.join(" ", with(part, 2, day)));
                }
            } else {
                apart.add(String.join(" ", part));
            }
        }
        return apart;
    }

    private static boolean anyDay(String field) {
        return field.equals("*") || field.equals("?") || field.equals("*/1");
    }

    private static String[] with(String[] fields, int index, String value) {
        String[] copy = fields.clone();
        copy[index] = value;
        return copy;
    }

    /** The fire times of an expression read in parts: the earliest part's next. */
    private record Times(List<ExecutionTime> parts) {
        Optional<ZonedDateTime> nextExecution(ZonedDateTime after) {
            return parts.stream().map(part -> part.nextExecution(after)).flatMap(Optional::stream)
                    .min(Comparator.naturalOrder());
        }
    }

    private com.cronutils.model.Cron parse(String cron) {
        String expression = SHORTHANDS.getOrDefault(cron.strip().toLowerCase(java.util.Locale.ROOT), cron.strip());
        String[] fields = expression.split("\\s+");
        try {
            if (fields.length == 5) {
                return minutes.parse(expression);
            }
            if (fields.length == 6) {
                // croniter's seconds come last; cron-utils reads them first.
                return seconds.parse(fields[5] + " " + String.join(" ", java.util.Arrays.copyOf(fields, 5)));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid cron expression '" + cron + "': " + e.getMessage());
        }
        throw new IllegalArgumentException("Cron expression must have exactly 5 fields (or 6, the last of them "
                + "seconds) or be a predefined expression (@daily, @weekly, etc.). Got " + fields.length
                + " fields: '" + cron + "'");
    }
}
