package dev.hexaflow.adapters.nodes.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The expected texts are what Python 3.12 with zoneinfo prints for the same instant and format. */
class JdkTimeToolRunnerTest {

    private static final Instant NOW = Instant.parse("2024-01-15T14:03:09.123456Z");
    private final JdkTimeToolRunner time = new JdkTimeToolRunner(Clock.fixed(NOW, ZoneOffset.UTC));

    private String run(String tool, Object... pairs) {
        Map<String, Object> arguments = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put((String) pairs[i], pairs[i + 1]);
        }
        List<ToolMessage> messages = time.run(new ToolRef(ToolProviderType.BUILTIN, "time", tool), arguments,
                new StopSwitch());
        assertThat(messages).hasSize(1);
        return ((ToolMessage.Text) messages.get(0)).text();
    }

    @Test
    void currentTimeWithoutFormatOrZoneIsUtcInDifysDefaultFormat() {
        assertThat(run("current_time")).isEqualTo("2024-01-15 14:03:09 UTC");
        assertThat(run("current_time", "format", "", "timezone", "UTC")).isEqualTo("2024-01-15 14:03:09 UTC");
    }

    @Test
    void currentTimeInAZoneAbbreviatesItAsTheTzDatabaseDoes() {
        assertThat(run("current_time", "timezone", "America/New_York", "format", "%Y-%m-%d %H:%M:%S %Z %z"))
                .isEqualTo("2024-01-15 09:03:09 EST -0500");
        assertThat(run("current_time", "timezone", "Asia/Ho_Chi_Minh", "format", "%Y-%m-%d %H:%M:%S %Z %z"))
                .isEqualTo("2024-01-15 21:03:09 +07 +0700");
        assertThat(run("current_time", "timezone", "Asia/Kolkata", "format", "%Y-%m-%d %H:%M:%S %Z %z"))
                .isEqualTo("2024-01-15 19:33:09 IST +0530");
        assertThat(run("current_time", "timezone", "Europe/London", "format", "%Y-%m-%d %H:%M:%S %Z %z"))
                .isEqualTo("2024-01-15 14:03:09 GMT +0000");
    }

    @Test
    void currentTimeFormatsEveryStrftimeDirectiveAsPythonOnLinux() {
        assertThat(run("current_time", "format",
                "%a %A %b %B %-d %e %j %U %W %I %p %y %f %c %x %X %u %w %G-%V %%"))
                .isEqualTo("Mon Monday Jan January 15 15 015 02 03 02 PM 24 123456 Mon Jan 15 14:03:09 2024 "
                        + "01/15/24 14:03:09 1 1 2024-03 %");
    }

    @Test
    void currentTimeInAnUnknownZoneAnswersDifysTextNotAnError() {
        assertThat(run("current_time", "timezone", "Mars/Olympus")).isEqualTo("Invalid timezone: Mars/Olympus");
    }

    @Test
    void weekdayNamesTheDayOfAValidDateAndRefusesAnInvalidOneInText() {
        assertThat(run("weekday", "year", 2024, "month", 2, "day", 29)).isEqualTo("February 29, 2024 is Thursday.");
        assertThat(run("weekday", "year", "2023", "month", "2", "day", "29"))
                .isEqualTo("Invalid date: Year 2023, Month 2, Day 29.");
        assertThatThrownBy(() -> run("weekday", "year", 2024, "day", 1)).isInstanceOf(ToolException.class);
    }

    @Test
    void localtimeAndTimestampConvertBothWaysInShanghaiByDefault() {
        assertThat(run("localtime_to_timestamp", "localtime", "2024-01-15 08:00:00")).isEqualTo("1705276800");
        assertThat(run("timestamp_to_localtime", "timestamp", 1705327389L)).isEqualTo("2024-01-15 22:03:09");
        assertThat(run("timestamp_to_localtime", "timestamp", "1705327389", "timezone", "UTC"))
                .isEqualTo("2024-01-15 14:03:09");
    }

    @Test
    void timezoneConversionConvertsToTheTargetZone() {
        assertThat(run("timezone_conversion", "current_time", "2024-01-15 08:00:00", "current_timezone",
                "Asia/Shanghai", "target_timezone", "Asia/Tokyo")).isEqualTo("2024-01-15 09:00:00");
    }

    @Test
    void aTimeThatDoesNotReadOrAnUnknownZoneFailsWithPythonsMessage() {
        assertThatThrownBy(() -> run("localtime_to_timestamp", "localtime", "15/01/2024"))
                .hasMessage("time data '15/01/2024' does not match format '%Y-%m-%d %H:%M:%S'");
        assertThatThrownBy(() -> run("timezone_conversion", "current_time", "2024-01-15 08:00:00",
                "current_timezone", "Nowhere/City")).hasMessage("Invalid timezone: 'Nowhere/City'");
    }

    @Test
    void thePluginWayAndTheOldWayNameTheSameTools() {
        assertThat(time.describe(new ToolRef(ToolProviderType.PLUGIN, "langgenius/time/time", "current_time")))
                .isPresent();
        assertThat(time.describe(new ToolRef(ToolProviderType.BUILTIN, "time", "no_such_tool"))).isEmpty();
        assertThat(time.describe(new ToolRef(ToolProviderType.MCP, "time", "current_time"))).isEmpty();
    }
}
