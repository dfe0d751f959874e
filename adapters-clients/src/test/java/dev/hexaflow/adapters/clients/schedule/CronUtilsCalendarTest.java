package dev.hexaflow.adapters.clients.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.trigger.ScheduleSpec;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cron calendar as Dify's croniter reads cron: five fields and the {@code @daily} shorthands, croniter's sixth
 * field of seconds, {@code L}, {@code W}, {@code #}, {@code ?}, names, Sunday as 0 or 7; expressions it cannot read
 * refused with a message that says why; and wall-clock times in the schedule's zone across daylight-saving changes.
 */
class CronUtilsCalendarTest {

    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    /** A Wednesday. */
    private static final String WEDNESDAY = "2026-03-04T10:00:00Z";

    private final CronUtilsCalendar calendar = new CronUtilsCalendar();

    private Instant next(String cron, ZoneId zone, String after) {
        return calendar.next(new ScheduleSpec(cron, zone), Instant.parse(after));
    }

    private ZonedDateTime nextIn(String cron, ZoneId zone, String after) {
        return next(cron, zone, after).atZone(zone);
    }

    /** The first {@code count} fire times after {@code after}, each found from the one before. */
    private List<ZonedDateTime> fires(String cron, ZoneId zone, String after, int count) {
        List<ZonedDateTime> fires = new ArrayList<>();
        Instant at = Instant.parse(after);
        for (int i = 0; i < count; i++) {
            at = calendar.next(new ScheduleSpec(cron, zone), at);
            fires.add(at.atZone(zone));
        }
        return fires;
    }

    @Test
    void fiveFieldsReadAsMinuteHourDayOfMonthMonthAndDayOfWeek() {
        assertThat(next("*/15 * * * *", UTC, WEDNESDAY)).isEqualTo("2026-03-04T10:15:00Z");
        assertThat(next("30 14 * * *", UTC, WEDNESDAY)).isEqualTo("2026-03-04T14:30:00Z");
        assertThat(next("0 9 * * 1-5", UTC, WEDNESDAY)).isEqualTo("2026-03-05T09:00:00Z");
        assertThat(next("0 0 1 6 *", UTC, WEDNESDAY)).isEqualTo("2026-06-01T00:00:00Z");
        assertThat(next("5 9 * * 1,5", UTC, WEDNESDAY)).isEqualTo("2026-03-06T09:05:00Z");
    }

    @Test
    void theNextFireIsStrictlyAfterTheGivenTime() {
        assertThat(next("0 9 * * *", UTC, "2026-03-04T09:00:00Z")).isEqualTo("2026-03-05T09:00:00Z");
        assertThat(next("0 9 * * *", UTC, "2026-03-04T08:59:59.999Z")).isEqualTo("2026-03-04T09:00:00Z");
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({"@hourly, 2026-03-04T11:00:00Z", "@daily, 2026-03-05T00:00:00Z", "@midnight, 2026-03-05T00:00:00Z",
            "@weekly, 2026-03-08T00:00:00Z", "@monthly, 2026-04-01T00:00:00Z", "@yearly, 2027-01-01T00:00:00Z",
            "@annually, 2027-01-01T00:00:00Z", "@DAILY, 2026-03-05T00:00:00Z"})
    void theShorthandsReadAsCronitersPredefinedExpressions(String shorthand, String expected) {
        assertThat(next(shorthand, UTC, WEDNESDAY)).isEqualTo(expected);
    }

    @Test
    void aSixthFieldHoldsTheSecondsAsCroniterReadsIt() {
        assertThat(next("* * * * * 30", UTC, "2026-02-03T00:00:00Z")).isEqualTo("2026-02-03T00:00:30Z");
        assertThat(fires("0 * * * * 15,45", UTC, "2026-02-03T00:00:20Z", 3)).extracting(ZonedDateTime::toInstant)
                .containsExactly(Instant.parse("2026-02-03T00:00:45Z"), Instant.parse("2026-02-03T01:00:15Z"),
                        Instant.parse("2026-02-03T01:00:45Z"));
        assertThat(next("30 9 * * * 0", UTC, WEDNESDAY)).as("minute first, seconds last")
                .isEqualTo("2026-03-05T09:30:00Z");
    }

    @Test
    void lIsTheMonthsLastDayLeapYearsIncluded() {
        assertThat(next("0 0 L * *", UTC, "2026-02-03T00:00:00Z")).isEqualTo("2026-02-28T00:00:00Z");
        assertThat(next("0 0 L * *", UTC, "2028-02-03T00:00:00Z")).isEqualTo("2028-02-29T00:00:00Z");
        assertThat(fires("0 0 1,15,L * *", UTC, "2026-04-10T00:00:00Z", 4)).extracting(ZonedDateTime::toLocalDate)
                .map(Object::toString).containsExactly("2026-04-15", "2026-04-30", "2026-05-01", "2026-05-15");
        assertThat(fires("0 0 L,1-2 * *", UTC, "2026-04-10T00:00:00Z", 3)).extracting(ZonedDateTime::toLocalDate)
                .map(Object::toString).containsExactly("2026-04-30", "2026-05-01", "2026-05-02");
        assertThat(fires("0 0 5,L-2 * * 30", UTC, "2026-04-10T00:00:00Z", 2)).extracting(ZonedDateTime::toInstant)
                .containsExactly(Instant.parse("2026-04-28T00:00:30Z"), Instant.parse("2026-05-05T00:00:30Z"));
    }

    @Test
    void sundayIsBothZeroAndSevenAndRangesMayEndOnSeven() {
        assertThat(next("0 9 * * 0", UTC, WEDNESDAY)).isEqualTo("2026-03-08T09:00:00Z");
        assertThat(next("0 9 * * 7", UTC, WEDNESDAY)).isEqualTo("2026-03-08T09:00:00Z");
        assertThat(fires("0 9 * * 5-7", UTC, WEDNESDAY, 4)).extracting(ZonedDateTime::getDayOfWeek)
                .containsExactly(DayOfWeek.FRIDAY, DayOfWeek.SATURDAY, DayOfWeek.SUNDAY, DayOfWeek.FRIDAY);
        assertThat(nextIn("0 9 * * 1", UTC, WEDNESDAY).getDayOfWeek()).isEqualTo(DayOfWeek.MONDAY);
        assertThat(nextIn("0 9 * * 6", UTC, WEDNESDAY).getDayOfWeek()).isEqualTo(DayOfWeek.SATURDAY);
    }

    @Test
    void aDayOfMonthAndADayOfWeekBothGivenFireOnEitherAsCroniterReadsThem() {
        assertThat(fires("0 9 1 * 1", UTC, WEDNESDAY, 5)).extracting(z -> z.toLocalDate().toString())
                .as("the 1st, and every Monday").containsExactly("2026-03-09", "2026-03-16", "2026-03-23",
                        "2026-03-30", "2026-04-01");
        assertThat(fires("0 9 12 * 5", UTC, "2026-03-10T00:00:00Z", 3)).extracting(z -> z.toLocalDate().toString())
                .as("Thursday the 12th, and every Friday").containsExactly("2026-03-12", "2026-03-13", "2026-03-20");
        assertThat(fires("0 9 1,L * 3", UTC, "2026-03-28T00:00:00Z", 3)).extracting(z -> z.toLocalDate()
                .toString()).containsExactly("2026-03-31", "2026-04-01", "2026-04-08");
        assertThat(fires("0 9 ? * 1", UTC, WEDNESDAY, 2)).extracting(z -> z.toLocalDate().toString())
                .as("? leaves the days of month out").containsExactly("2026-03-09", "2026-03-16");
    }

    @Test
    void monthAndDayNamesAreReadInAnyCase() {
        assertThat(next("0 9 * * SUN", UTC, WEDNESDAY)).isEqualTo("2026-03-08T09:00:00Z");
        assertThat(next("0 9 * * sun", UTC, WEDNESDAY)).isEqualTo("2026-03-08T09:00:00Z");
        assertThat(next("0 9 * * MON-FRI", UTC, WEDNESDAY)).isEqualTo("2026-03-05T09:00:00Z");
        assertThat(next("0 9 * JAN *", UTC, WEDNESDAY)).isEqualTo("2027-01-01T09:00:00Z");
        assertThat(next("0 9 1 jun *", UTC, WEDNESDAY)).isEqualTo("2026-06-01T09:00:00Z");
    }

    @Test
    void croniterExtrasQuestionMarkHashAndWeekdayNearestAreRead() {
        assertThat(next("0 9 ? * *", UTC, WEDNESDAY)).isEqualTo("2026-03-05T09:00:00Z");
        assertThat(next("0 9 * * 1#2", UTC, WEDNESDAY)).as("the second Monday").isEqualTo("2026-03-09T09:00:00Z");
        assertThat(next("0 9 * * 5L", UTC, WEDNESDAY)).as("the last Friday").isEqualTo("2026-03-27T09:00:00Z");
        assertThat(next("0 9 15W * *", UTC, WEDNESDAY)).as("15 March 2026 is a Sunday")
                .isEqualTo("2026-03-16T09:00:00Z");
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"* * *", "* * * *", "* * * * * * *", "@reboot", "@every 5m"})
    void anExpressionOfTheWrongShapeIsRefusedCountingItsFields(String cron) {
        assertThatThrownBy(() -> calendar.next(new ScheduleSpec(cron, UTC), Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cron expression must have exactly 5 fields")
                .hasMessageContaining("predefined expression (@daily, @weekly, etc.)")
                .hasMessageContaining("fields: '");
    }

    @Test
    void aFieldOutOfRangeOrUnreadableIsRefusedNamingTheExpressionAndTheValue() {
        assertInvalid("61 * * * *", "Value 61 not in range [0, 59]");
        assertInvalid("0 24 * * *", "Value 24 not in range [0, 23]");
        assertInvalid("0 0 32 * *", "Value 32 not in range [1, 31]");
        assertInvalid("0 9 * 13 *", "Value 13 not in range [1, 12]");
        assertInvalid("0 9 * * 8", "Value 8 not in range [0, 7]");
        assertInvalid("a b c d e", "Invalid chars");
    }

    @Test
    void anExpressionThatNeverFiresIsRefused() {
        assertThatThrownBy(() -> next("0 0 30 2 *", UTC, WEDNESDAY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'0 0 30 2 *' never fires");
    }

    @Test
    void inTheSpringGapATimeTheClockSkipsFiresAtTheGapsEndThatDay() {
        // 2026-03-08 in New York: 02:00 EST becomes 03:00 EDT, so 02:30 never shows on its clocks.
        assertThat(nextIn("30 2 * * *", NEW_YORK, "2026-03-08T05:00:00Z").toOffsetDateTime())
                .hasToString("2026-03-08T03:30-04:00");
        assertThat(nextIn("30 2 * * *", NEW_YORK, "2026-03-08T07:30:00Z").toOffsetDateTime())
                .as("the next day as usual").hasToString("2026-03-09T02:30-04:00");
        assertThat(fires("*/20 * * * *", NEW_YORK, "2026-03-08T06:30:00Z", 4)).extracting(z -> z.toOffsetDateTime()
                .toString()).containsExactly("2026-03-08T01:40-05:00", "2026-03-08T03:00-04:00",
                "2026-03-08T03:20-04:00", "2026-03-08T03:40-04:00");
    }

    @Test
    void inTheAutumnOverlapADailyTimeFiresOnce() {
        // 2026-11-01 in New York: 02:00 EDT becomes 01:00 EST, so 01:30 shows twice on its clocks.
        assertThat(fires("30 1 * * *", NEW_YORK, "2026-11-01T04:00:00Z", 2)).extracting(z -> z.toOffsetDateTime()
                .toString()).containsExactly("2026-11-01T01:30-04:00", "2026-11-02T01:30-05:00");
    }

    @Test
    void inTheAutumnOverlapAnEveryTwentyMinutesScheduleFiresInBothPassesOfTheRepeatedHour() {
        assertThat(fires("*/20 * * * *", NEW_YORK, "2026-11-01T04:50:00Z", 8)).extracting(z -> z.toOffsetDateTime()
                .toString()).containsExactly("2026-11-01T01:00-04:00", "2026-11-01T01:20-04:00",
                "2026-11-01T01:40-04:00", "2026-11-01T01:00-05:00", "2026-11-01T01:20-05:00",
                "2026-11-01T01:40-05:00", "2026-11-01T02:00-05:00", "2026-11-01T02:20-05:00");
    }

    @Test
    void theSameWallClockTimeIsAnotherInstantInParisThanInUtcWinterAndSummer() {
        assertThat(next("0 9 * * *", UTC, "2026-01-10T00:00:00Z")).isEqualTo("2026-01-10T09:00:00Z");
        assertThat(next("0 9 * * *", PARIS, "2026-01-10T00:00:00Z")).isEqualTo("2026-01-10T08:00:00Z");
        assertThat(next("0 9 * * *", PARIS, "2026-07-10T00:00:00Z")).isEqualTo("2026-07-10T07:00:00Z");
        assertThat(next("0 0 * * *", PARIS, "2026-07-10T21:00:00Z")).as("Paris' midnight is UTC's 22:00")
                .isEqualTo("2026-07-10T22:00:00Z");
        assertThat(nextIn("30 2 * * *", PARIS, "2026-03-28T12:00:00Z").toOffsetDateTime())
                .as("Paris' own spring gap").hasToString("2026-03-29T03:30+02:00");
    }

    private void assertInvalid(String cron, String reason) {
        assertThatThrownBy(() -> next(cron, UTC, WEDNESDAY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid cron expression '" + cron + "': ").hasMessageContaining(reason);
    }
}
