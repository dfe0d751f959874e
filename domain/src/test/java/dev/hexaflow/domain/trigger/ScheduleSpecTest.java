package dev.hexaflow.domain.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.DataTree;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reading a trigger-schedule node's data as Dify's {@code schedule_policy.visual_to_cron} and
 * {@code convert_12h_to_24h} do: the editor's visual frequencies become the cron Dify makes of them, and each
 * setting Dify refuses is refused with Dify's own message.
 */
class ScheduleSpecTest {

    /** A node's data: {@code mode}, {@code frequency}, ... as the DSL has them, with a {@code visual_config}. */
    private static DataTree node(Map<String, Object> visual, Object... keysAndValues) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "trigger-schedule");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            data.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        if (visual != null) {
            data.put("visual_config", visual);
        }
        return DataTree.of(data);
    }

    private static ScheduleSpec visual(String frequency, Map<String, Object> visual) {
        return ScheduleSpec.of(node(visual, "mode", "visual", "frequency", frequency));
    }

    /** A map that may hold nulls, as a DSL's {@code time: null} reads. */
    private static Map<String, Object> config(Object... keysAndValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void difysOwnExamplesBecomeTheCronDifyMakesOfThem() {
        assertThat(visual("daily", config("time", "12:00 AM")).cron()).isEqualTo("0 0 * * *");
        assertThat(visual("daily", config("time", "2:30 PM")).cron()).isEqualTo("30 14 * * *");
        assertThat(visual("weekly", config("time", "9:05 AM", "weekdays", List.of("mon", "fri"))).cron())
                .isEqualTo("5 9 * * 1,5");
        assertThat(visual("monthly", config("time", "12:00 AM", "monthly_days", List.of(15, 1, "last"))).cron())
                .isEqualTo("0 0 1,15,L * *");
        assertThat(visual("hourly", config("on_minute", 30)).cron()).isEqualTo("30 * * * *");
    }

    @ParameterizedTest(name = "{0} is {1}:{2}")
    @CsvSource({"12:00 AM, 0, 0", "12:00 PM, 12, 0", "1:30 PM, 13, 30", "11:59 PM, 23, 59", "12:59 am, 0, 59",
            "09:05 am, 9, 5", "'  7:15   pm  ', 19, 15"})
    void twelveHourTimesReadAsConvert12hTo24hReadsThem(String time, int hour, int minute) {
        assertThat(visual("daily", config("time", time)).cron()).isEqualTo(minute + " " + hour + " * * *");
    }

    @Test
    void weekdaysAreSortedAndSundayIsZeroWhateverTheEditorsOrder() {
        assertThat(visual("weekly", config("time", "6:00 AM", "weekdays", List.of("sat", "sun", "wed"))).cron())
                .isEqualTo("0 6 * * 0,3,6");
        assertThat(visual("weekly", config("time", "6:00 AM", "weekdays", List.of("tue", "tue"))).cron())
                .as("a day chosen twice fires once either way").isEqualTo("0 6 * * 2");
    }

    @Test
    void monthlyDaysAreSortedWithoutRepeatsAndTheLastDayComesLastAsL() {
        assertThat(visual("monthly", config("time", "1:00 AM", "monthly_days", List.of(31, 7, 7, 28))).cron())
                .isEqualTo("0 1 7,28,31 * *");
        assertThat(visual("monthly", config("time", "1:00 AM", "monthly_days", List.of("last"))).cron())
                .isEqualTo("0 1 L * *");
    }

    @Test
    void whatTheNodeLeavesOutTakesDifysDefaultsVisualDailyAtMidnightInUtc() {
        ScheduleSpec bare = ScheduleSpec.of(node(null, "frequency", "daily"));
        ScheduleSpec hourly = visual("hourly", config());

        assertThat(bare).isEqualTo(new ScheduleSpec("0 0 * * *", ZoneId.of("UTC")));
        assertThat(hourly.cron()).as("on_minute defaults to 0").isEqualTo("0 * * * *");
    }

    @Test
    void theEditorsExportedDefaultsMakeADailyScheduleAndTheOtherFrequenciesTheirOwnFields() {
        Map<String, Object> defaults = config("time", "12:00 AM", "on_minute", 0, "weekdays", List.of("sun"),
                "monthly_days", List.of(1));

        assertThat(visual("daily", defaults).cron()).isEqualTo("0 0 * * *");
        assertThat(visual("hourly", defaults).cron()).isEqualTo("0 * * * *");
        assertThat(visual("weekly", defaults).cron()).isEqualTo("0 0 * * 0");
        assertThat(visual("monthly", defaults).cron()).isEqualTo("0 0 1 * *");
    }

    @Test
    void cronModeKeepsTheExpressionTrimmedAndTheNodesTimeZone() {
        ScheduleSpec spec = ScheduleSpec.of(node(null, "mode", "cron", "cron_expression", "  0 */6 * * *  ",
                "timezone", "Asia/Shanghai", "frequency", "daily"));

        assertThat(spec).isEqualTo(new ScheduleSpec("0 */6 * * *", ZoneId.of("Asia/Shanghai")));
    }

    @Test
    void theSettingsOfAMissingOrUnknownModeAreRefusedWithDifysMessages() {
        assertRefused(node(null, "mode", "cron"), "Cron expression is required for cron mode");
        assertRefused(node(null, "mode", "cron", "cron_expression", "   "),
                "Cron expression is required for cron mode");
        assertRefused(node(null, "mode", "visual"), "Frequency is required for visual mode");
        assertRefused(node(null, "mode", "visual", "frequency", ""), "Frequency is required for visual mode");
        assertRefused(node(null, "mode", "sometimes"), "Invalid schedule mode: sometimes");
        assertRefused(node(config(), "frequency", "yearly"), "Unsupported frequency: yearly");
    }

    @Test
    void aTimeZoneJavaDoesNotKnowIsRefusedAsZoneinfoRefusesIt() {
        assertRefused(node(null, "mode", "cron", "cron_expression", "* * * * *", "timezone", "Mars/Olympus"),
                "Invalid timezone: 'Mars/Olympus'");
        assertRefused(node(null, "frequency", "daily", "timezone", ""), "Invalid timezone: ''");
        assertThat(ScheduleSpec.of(node(null, "frequency", "daily", "timezone", "Europe/Paris")).zone())
                .isEqualTo(ZoneId.of("Europe/Paris"));
    }

    @Test
    void aFrequencyWithoutWhatItNeedsIsRefusedWithDifysMessage() {
        assertRefused(node(config("on_minute", null), "frequency", "hourly"),
                "on_minute is required for hourly schedules");
        for (String frequency : List.of("daily", "weekly", "monthly")) {
            assertRefused(node(config("time", "", "weekdays", List.of("mon"), "monthly_days", List.of(1)),
                    "frequency", frequency), "time is required for " + frequency + " schedules");
            assertRefused(node(config("time", null, "weekdays", List.of("mon"), "monthly_days", List.of(1)),
                    "frequency", frequency), "time is required for " + frequency + " schedules");
        }
        assertRefused(node(config("time", "9:00 AM"), "frequency", "weekly"),
                "Weekdays are required for weekly schedules");
        assertRefused(node(config("time", "9:00 AM", "weekdays", List.of()), "frequency", "weekly"),
                "Weekdays are required for weekly schedules");
        assertRefused(node(config("time", "9:00 AM", "monthly_days", List.of()), "frequency", "monthly"),
                "Monthly days are required for monthly schedules");
    }

    @Test
    void aTimeThatIsNotTwelveHourTimeIsRefusedWithConvert12hTo24hsMessages() {
        assertTimeRefused("   ", "Time string cannot be empty");
        assertTimeRefused("2:30PM", "Invalid time format: '2:30PM'. Expected 'HH:MM AM/PM'");
        assertTimeRefused("2:30 PM UTC", "Invalid time format: '2:30 PM UTC'. Expected 'HH:MM AM/PM'");
        assertTimeRefused("2:30 xm", "Invalid period: 'XM'. Must be 'AM' or 'PM'");
        assertTimeRefused("14 PM", "Invalid time format: '14'. Expected 'HH:MM'");
        assertTimeRefused("1:2:3 PM", "Invalid time format: '1:2:3'. Expected 'HH:MM'");
        assertTimeRefused("13:00 PM", "Invalid hour: 13. Must be between 1 and 12");
        assertTimeRefused("0:30 AM", "Invalid hour: 0. Must be between 1 and 12");
        assertTimeRefused("11:60 AM", "Invalid minute: 60. Must be between 0 and 59");
    }

    @Test
    void valuesTheEditorCannotProduceAreRefusedNamingTheField() {
        assertRefused(node(config("on_minute", 60), "frequency", "hourly"), "on_minute is between 0 and 59, was 60");
        assertRefused(node(config("weekdays", List.of("mon", "funday")), "frequency", "weekly"),
                "a weekday is one of sun, mon, tue, wed, thu, fri, sat, not 'funday'");
        assertRefused(node(config("monthly_days", List.of(1, 32)), "frequency", "monthly"),
                "a monthly day is 1 to 31 or 'last', not '32'");
        assertRefused(node(config("monthly_days", List.of(0)), "frequency", "monthly"),
                "a monthly day is 1 to 31 or 'last', not '0'");
    }

    @Test
    void aScheduleHasAnExpressionAndATimeZone() {
        assertThatThrownBy(() -> new ScheduleSpec(" ", ZoneOffset.UTC)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a schedule has a cron expression and a time zone");
        assertThatThrownBy(() -> new ScheduleSpec("* * * * *", null)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertTimeRefused(String time, String message) {
        for (String frequency : Arrays.asList("daily", "weekly", "monthly")) {
            assertRefused(node(config("time", time, "weekdays", List.of("mon"), "monthly_days", List.of(1)),
                    "frequency", frequency), message);
        }
    }

    private static void assertRefused(DataTree data, String message) {
        assertThatThrownBy(() -> ScheduleSpec.of(data)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }
}
