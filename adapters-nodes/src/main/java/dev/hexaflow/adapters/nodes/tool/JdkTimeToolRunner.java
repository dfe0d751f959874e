package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dify's built-in {@code time} tools on java.time, with Dify's parameters, defaults, texts and errors:
 * current_time, weekday, localtime_to_timestamp, timestamp_to_localtime and timezone_conversion. "Now" is the
 * injected clock's, and a tool told of no zone uses the clock's zone where Dify uses the server's.
 */
public final class JdkTimeToolRunner implements ToolRunner {

    static final String PROVIDER = "time";
    private static final String DATE_TIME = "%Y-%m-%d %H:%M:%S";
    /** strptime's reading of {@value #DATE_TIME}: one or two digits for all but the year. */
    private static final Pattern LOCAL_TIME = Pattern.compile(
            "(\\d{4})-(\\d{1,2})-(\\d{1,2}) (\\d{1,2}):(\\d{1,2}):(\\d{1,2})");

    private static final Map<String, ToolDescription> TOOLS = Map.of(
            "current_time", tool("current_time", "A tool for getting the current time.",
                    List.of("format", "timezone"), Map.of(), List.of()),
            "weekday", tool("weekday", "A tool for calculating the weekday of a given date.",
                    List.of("year", "month", "day"), Map.of("year", "number", "month", "number", "day", "number"),
                    List.of("month", "day")),
            "localtime_to_timestamp", tool("localtime_to_timestamp",
                    "A tool for localtime convert to timestamp (format %Y-%m-%d %H:%M:%S).",
                    List.of("localtime", "timezone"), Map.of(), List.of("localtime")),
            "timestamp_to_localtime", tool("timestamp_to_localtime", "A tool for timestamp convert to localtime.",
                    List.of("timestamp", "timezone"), Map.of("timestamp", "integer"), List.of("timestamp")),
            "timezone_conversion", tool("timezone_conversion",
                    "A tool for timezone conversion (format %Y-%m-%d %H:%M:%S).",
                    List.of("current_time", "current_timezone", "target_timezone"), Map.of(),
                    List.of("current_time", "current_timezone", "target_timezone")));

    private final Clock clock;

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return TOOLS.keySet().stream().sorted().map(tool -> PROVIDER + "/" + tool).toList();
    }

    public JdkTimeToolRunner(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && tool.provider().equals(PROVIDER);
        return ours ? Optional.ofNullable(TOOLS.get(tool.tool())).map(d -> new ToolDescription(tool,
                d.description(), d.inputSchema())) : Optional.empty();
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        BuiltinArguments args = new BuiltinArguments(arguments);
        String text = switch (tool.tool()) {
            case "current_time" -> currentTime(args);
            case "weekday" -> weekday(args);
            case "localtime_to_timestamp" -> localtimeToTimestamp(args);
            case "timestamp_to_localtime" -> timestampToLocaltime(args);
            case "timezone_conversion" -> timezoneConversion(args);
            default -> throw new ToolException("The time provider has no tool " + tool.tool());
        };
        return List.of(new ToolMessage.Text(text));
    }

    private String currentTime(BuiltinArguments args) {
        String zone = args.text("timezone", "UTC");
        String format = args.text("format", "");
        if (format.isEmpty()) {
            format = "%Y-%m-%d %H:%M:%S %Z";
        }
        if (zone.equals("UTC")) {
            return PythonStrftime.format(ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC), format);
        }
        Optional<ZoneId> id = zone(zone);
        if (id.isEmpty()) {
            return "Invalid timezone: " + zone;
        }
        return PythonStrftime.format(ZonedDateTime.ofInstant(clock.instant(), id.get()), format);
    }

    private static String weekday(BuiltinArguments args) {
        Long year = args.wholeNumber("year");
        Long month = args.wholeNumber("month");
        if (month == null) {
            throw new ToolException("月份为必填项");
        }
        Long day = args.wholeNumber("day");
        String invalid = "Invalid date: Year " + python(year) + ", Month " + month + ", Day " + python(day) + ".";
        if (year == null || day == null || year < 1 || year > 9999 || month < 1 || month > 12 || day < 1
                || day > 31) {
            return invalid;
        }
        LocalDate date;
        try {
            date = LocalDate.of(year.intValue(), month.intValue(), day.intValue());
        } catch (DateTimeException e) {
            return invalid;
        }
        return date.getMonth().getDisplayName(TextStyle.FULL, Locale.US) + " " + date.getDayOfMonth() + ", "
                + date.getYear() + " is " + date.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.US) + ".";
    }

    private String localtimeToTimestamp(BuiltinArguments args) {
        String localtime = args.text("localtime", "");
        ZoneId zone = zoneOrLocal(args.text("timezone", "Asia/Shanghai"));
        return Long.toString(localTime(localtime).atZone(zone).toEpochSecond());
    }

    private String timestampToLocaltime(BuiltinArguments args) {
        Long timestamp = args.wholeNumber("timestamp");
        ZoneId zone = zoneOrLocal(args.text("timezone", "Asia/Shanghai"));
        Instant instant;
        try {
            instant = Instant.ofEpochSecond(timestamp == null ? 0 : timestamp);
            return PythonStrftime.format(ZonedDateTime.ofInstant(instant, zone), DATE_TIME);
        } catch (DateTimeException | ArithmeticException e) {
            throw new ToolException("year is out of range");
        }
    }

    private static String timezoneConversion(BuiltinArguments args) {
        String time = args.text("current_time", "");
        ZoneId from = named(args.text("current_timezone", "Asia/Shanghai"));
        ZoneId to = named(args.text("target_timezone", "Asia/Tokyo"));
        ZonedDateTime converted = localTime(time).atZone(from).withZoneSameInstant(to);
        return PythonStrftime.format(converted, DATE_TIME);
    }

    /** strptime with {@value #DATE_TIME}, and its messages. */
    private static LocalDateTime localTime(String text) {
        Matcher matcher = LOCAL_TIME.matcher(text == null ? "" : text);
        if (!matcher.matches()) {
            throw new ToolException("time data '" + text + "' does not match format '" + DATE_TIME + "'");
        }
        int[] parts = new int[6];
        for (int i = 0; i < 6; i++) {
            parts[i] = Integer.parseInt(matcher.group(i + 1));
        }
        if (parts[1] < 1 || parts[1] > 12 || parts[3] > 23 || parts[4] > 59 || parts[5] > 61) {
            throw new ToolException("time data '" + text + "' does not match format '" + DATE_TIME + "'");
        }
        try {
            return LocalDateTime.of(parts[0], parts[1], parts[2], parts[3], parts[4], Math.min(parts[5], 59));
        } catch (DateTimeException e) {
            throw new ToolException("day is out of range for month");
        }
    }

    private ZoneId zoneOrLocal(String name) {
        return name.isEmpty() ? clock.getZone() : named(name);
    }

    private static ZoneId named(String name) {
        return zone(name).orElseThrow(() -> new ToolException("Invalid timezone: '" + name + "'"));
    }

    /** A zone by its tz database name, as ZoneInfo takes it (not the JDK's offsets such as "+05:00"). */
    static Optional<ZoneId> zone(String name) {
        if (name == null || !ZoneId.getAvailableZoneIds().contains(name)) {
            return Optional.empty();
        }
        return Optional.of(ZoneId.of(name));
    }

    private static String python(Long number) {
        return number == null ? "None" : number.toString();
    }

    private static ToolDescription tool(String name, String description, List<String> parameters,
            Map<String, String> types, List<String> required) {
        return new ToolDescription(new ToolRef(ToolProviderType.BUILTIN, PROVIDER, name), description,
                BuiltinArguments.schema(parameters, types, required));
    }
}
