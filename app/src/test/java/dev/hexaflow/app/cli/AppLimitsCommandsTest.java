package dev.hexaflow.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexaflow apps limits ...} on the data dir of an app imported by {@code hexaflow apps import}: the server's
 * defaults shown, limits set from JSON and from a file and kept, reset, and each mistake said in one line with
 * nothing changed.
 */
class AppLimitsCommandsTest {

    @TempDir
    Path dir;
    String appId;

    private record Outcome(int exit, String out, String err) {
    }

    @BeforeEach
    void importTheApp() throws Exception {
        Path dsl = Path.of(AppLimitsCommandsTest.class.getResource("/apps/echo.yml").toURI());
        Outcome imported = main(Map.of(), "apps", "import", dsl.toString(), "--data-dir", data());
        assertThat(imported.exit()).as(imported.err()).isZero();
        Matcher id = Pattern.compile("app_id +(\\S+)").matcher(imported.out());
        assertThat(id.find()).isTrue();
        appId = id.group(1);
    }

    @Test
    void theDefaultsAreShownThenLimitsSetKeptAndReset() throws Exception {
        Outcome defaults = limits(Map.of("HEXAFLOW_LIMIT_ACTIVE_RUNS", "3"));
        assertThat(defaults.exit()).as(defaults.err()).isZero();
        assertThat(defaults.out()).contains("\"app_id\" : \"" + appId + "\"", "\"own\" : false",
                "\"active_runs\" : 3");

        Outcome set = limits(Map.of(), "--set", "{\"active_runs\": 8, \"rate_per_key\": {\"per_minute\": 60, "
                + "\"burst\": 10}}");
        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(set.out()).contains("\"own\" : true", "\"active_runs\" : 8", "\"per_minute\" : 60",
                "\"burst\" : 10");
        assertThat(limits(Map.of("HEXAFLOW_LIMIT_ACTIVE_RUNS", "3")).out()).contains("\"own\" : true",
                "\"active_runs\" : 8");

        Path file = dir.resolve("limits.json");
        Files.writeString(file, "{\"budgets\": [{\"scope\": \"end_user\", \"period\": \"day\", \"measure\": "
                + "\"tokens\", \"amount\": 20000}], \"time_zone\": \"Europe/Berlin\"}");
        Outcome fromFile = limits(Map.of(), "--file", file.toString());
        assertThat(fromFile.exit()).as(fromFile.err()).isZero();
        assertThat(fromFile.out()).contains("\"scope\" : \"end_user\"", "\"amount\" : 20000",
                "\"time_zone\" : \"Europe/Berlin\"", "\"active_runs\" : 0");

        Outcome reset = limits(Map.of("HEXAFLOW_LIMIT_ACTIVE_RUNS", "3"), "--reset");
        assertThat(reset.exit()).as(reset.err()).isZero();
        assertThat(reset.out()).contains("\"own\" : false", "\"active_runs\" : 3");
    }

    @Test
    void mistakesAreSaidInOneLineAndChangeNothing() {
        limits(Map.of(), "--set", "{\"active_runs\": 8}");
        Outcome negative = limits(Map.of(), "--set", "{\"active_runs\": -1}");
        assertThat(negative.exit()).isEqualTo(Main.FAILED);
        assertThat(negative.err()).isEqualTo("hexaflow: active_runs must be 0 (no limit) or more, was -1\n");
        Outcome notJson = limits(Map.of(), "--set", "{active");
        assertThat(notJson.exit()).isEqualTo(Main.FAILED);
        assertThat(notJson.err()).startsWith("hexaflow: the limits are not JSON");
        Outcome array = limits(Map.of(), "--set", "[1]");
        assertThat(array.err()).contains("the limits must be a JSON object");
        Outcome noFile = limits(Map.of(), "--file", dir.resolve("absent.json").toString());
        assertThat(noFile.exit()).isEqualTo(Main.FAILED);
        assertThat(noFile.err()).startsWith("hexaflow: cannot read ");
        assertThat(limits(Map.of()).out()).contains("\"own\" : true", "\"active_runs\" : 8");

        Outcome noApp = main(Map.of(), "apps", "limits", "no-such-app", "--data-dir", data());
        assertThat(noApp.exit()).isEqualTo(Main.FAILED);
        assertThat(noApp.err()).isEqualTo("hexaflow: App not found. (see hexaflow apps list for the apps)\n");
        Outcome both = limits(Map.of(), "--reset", "--set", "{}");
        assertThat(both.exit()).isEqualTo(Main.USAGE);
        assertThat(both.err()).contains("--set, --file and --reset go one at a time");
        Outcome elsewhere = main(Map.of(), "apps", "list", "--reset", "--data-dir", data());
        assertThat(elsewhere.exit()).isEqualTo(Main.USAGE);
        assertThat(elsewhere.err()).contains("--reset goes with the apps limits command");
    }

    private Outcome limits(Map<String, String> env, String... flags) {
        List<String> args = new ArrayList<>(List.of("apps", "limits", appId, "--data-dir", data()));
        args.addAll(List.of(flags));
        return main(env, args.toArray(String[]::new));
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private static Outcome main(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
