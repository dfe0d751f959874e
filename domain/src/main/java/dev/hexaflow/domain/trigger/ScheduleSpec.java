package dev.hexaflow.domain.trigger;

import dev.hexaflow.domain.workflow.DataTree;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A trigger-schedule node's schedule: a cron expression and the time zone its wall-clock times are read in. The
 * editor's visual frequencies become cron as Dify's {@code visual_to_cron} makes them (hourly at a minute; daily,
 * weekly or monthly at a 12-hour time; {@code last} as {@code L}). Whether the expression itself is valid cron is
 * the cron library's to say.
 */
public record ScheduleSpec(String cron, ZoneId zone) {

    private static final Map<String, String> WEEKDAYS = Map.of("sun", "0", "mon", "1", "tue", "2", "wed", "3", "thu",
            "4", "fri", "5", "sat", "6");

    public ScheduleSpec {
        if (cron == null || cron.isBlank() || zone == null) {
            throw new IllegalArgumentException("a schedule has a cron expression and a time zone");
        }
    }

    /** @throws IllegalArgumentException with Dify's message for a setting that makes no schedule */
    public static ScheduleSpec of(DataTree data) {
        String mode = data.string("mode", "visual");
        ZoneId zone = zone(data.string("timezone", "UTC"));
        if (mode.equals("cron")) {
            String cron = data.string("cron_expression", "").strip();
            if (cron.isEmpty()) {
                throw new IllegalArgumentException("Cron expression is required for cron mode");
            }
            return new ScheduleSpec(cron, zone);
        }
        if (!mode.equals("visual")) {
            throw new IllegalArgumentException("Invalid schedule mode: " + mode);
        }
        String frequency = data.string("frequency", "");
        if (frequency.isEmpty()) {
            throw new IllegalArgumentException("Frequency is required for visual mode");
        }
        DataTree visual = data.has("visual_config") ? data.tree("visual_config") : DataTree.of(Map.of());
        return new ScheduleSpec(visualToCron(frequency, visual), zone);
    }

    private static ZoneId zone(String name) {
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("Invalid timezone: '" + name + "'");
        }
    }

    static String visualToCron(String frequency, DataTree visual) {
        switch (frequency) {
            case "hourly" -> {
                // Absent, it is 0 (the editor's default); given as null, Dify refuses it.
                if (givenNull(visual, "on_minute")) {
                    throw new IllegalArgumentException("on_minute is required for hourly schedules");
                }
                long minute = visual.longValue("on_minute", 0);
                if (minute < 0 || minute > 59) {
                    throw new IllegalArgumentException("on_minute is between 0 and 59, was " + minute);
                }
                return minute + " * * * *";
            }
            case "daily" -> {
                int[] time = time(visual, frequency);
                return time[1] + " " + time[0] + " * * *";
            }
            case "weekly" -> {
                int[] time = time(visual, frequency);
                return time[1] + " " + time[0] + " * * " + weekdays(visual);
            }
            case "monthly" -> {
                int[] time = time(visual, frequency);
                return time[1] + " " + time[0] + " " + monthDays(visual) + " * *";
            }
            default -> throw new IllegalArgumentException("Unsupported frequency: " + frequency);
        }
    }

    private static int[] time(DataTree visual, String frequency) {
        String time = givenNull(visual, "time") ? "" : visual.string("time", "12:00 AM");
        if (time.isEmpty()) {
            throw new IllegalArgumentException("time is required for " + frequency + " schedules");
        }
        return hourAndMinute(time);
    }

    private static boolean givenNull(DataTree visual, String key) {
        return visual.asMap().containsKey(key) && visual.get(key) == null;
    }

    /** Dify's {@code convert_12h_to_24h}: "12:00 AM" is midnight, "1:30 PM" is 13:30. */
    static int[] hourAndMinute(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("Time string cannot be empty");
        }
        String[] parts = text.strip().split("\\s+");
        if (parts.length != 2) {
            throw new IllegalArgumentException("Invalid time format: '" + text + "'. Expected 'HH:MM AM/PM'");
        }
        String period = parts[1].toUpperCase(java.util.Locale.ROOT);
        if (!period.equals("AM") && !period.equals("PM")) {
            throw new IllegalArgumentException("Invalid period: '" + period + "'. Must be 'AM' or 'PM'");
        }
        String[] clock = parts[0].split(":");
        int hour;
        int minute;
        try {
            if (clock.length != 2) {
                throw new NumberFormatException();
            }
            hour = Integer.parseInt(clock[0]);
            minute = Integer.parseInt(clock[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid time format: '" + parts[0] + "'. Expected 'HH:MM'");
        }
        if (hour < 1 || hour > 12) {
            throw new IllegalArgumentException("Invalid hour: " + hour + ". Must be between 1 and 12");
        }
        if (minute < 0 || minute > 59) {
            throw new IllegalArgumentException("Invalid minute: " + minute + ". Must be between 0 and 59");
        }
        int hour24 = period.equals("AM") ? hour % 12 : hour % 12 + 12;
        return new int[] {hour24, minute};
    }

    private static String weekdays(DataTree visual) {
        TreeSet<String> days = new TreeSet<>();
        for (Object day : visual.has("weekdays") ? visual.list("weekdays") : List.of()) {
            String number = WEEKDAYS.get(String.valueOf(day));
            if (number == null) {
                throw new IllegalArgumentException("a weekday is one of sun, mon, tue, wed, thu, fri, sat, not '"
                        + day + "'");
            }
            days.add(number);
        }
        if (days.isEmpty()) {
            throw new IllegalArgumentException("Weekdays are required for weekly schedules");
        }
        return String.join(",", days);
    }

    private static String monthDays(DataTree visual) {
        TreeSet<Integer> days = new TreeSet<>();
        boolean last = false;
        for (Object day : visual.has("monthly_days") ? visual.list("monthly_days") : List.of()) {
            if ("last".equals(day)) {
                last = true;
            } else if (day instanceof Number number && number.intValue() >= 1 && number.intValue() <= 31) {
                days.add(number.intValue());
            } else {
                throw new IllegalArgumentException("a monthly day is 1 to 31 or 'last', not '" + day + "'");
            }
        }
        if (days.isEmpty() && !last) {
            throw new IllegalArgumentException("Monthly days are required for monthly schedules");
        }
        List<String> parts = new ArrayList<>();
        days.forEach(day -> parts.add(String.valueOf(day)));
        if (last) {
            parts.add("L");
        }
        return String.join(",", parts);
    }
}
