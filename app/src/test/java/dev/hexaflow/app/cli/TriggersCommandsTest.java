package dev.hexaflow.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.Main;
import dev.hexaflow.app.TestServer;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexaflow triggers ...} on the data dir of apps imported by {@code hexaflow apps import}: the list with URL
 * paths, schedules and next fire times, the switches (bind and unbind for a plugin trigger), the missed-ticks
 * policy, a webhook's authentication whose secret is never printed and which the server then holds callers to, a
 * new URL, and each mistake said in one line.
 */
class TriggersCommandsTest {

    private static final Pattern PATH = Pattern.compile("/triggers/webhook/[A-Za-z0-9]{32}");
    private static final String SECRET = "a-shared-secret-of-some-length";

    @TempDir
    Path dir;
    String hooks;
    String ticker;

    private record Outcome(int exit, String out, String err) {
    }

    @BeforeEach
    void importTheApps() throws Exception {
        hooks = imported("webhook-trigger.yml");
        ticker = imported("schedule-trigger.yml");
    }

    @Test
    void theListShowsEachTriggerWithItsUrlPathOrItsScheduleAndNextFireTimes() {
        Outcome webhooks = triggers(Map.of(), "list", hooks);
        Outcome schedules = triggers(Map.of(), "list", ticker);

        assertThat(webhooks.exit()).as(webhooks.err()).isZero();
        assertThat(webhooks.out()).contains("NODE ID", "KIND", "ON", "MISSED TICKS", "AUTH", "URL PATH OR SCHEDULE");
        assertThat(row(webhooks, "hook")).matches("hook +webhook +on +- +none +/triggers/webhook/[A-Za-z0-9]{32}");
        assertThat(row(webhooks, "github")).matches("github +plugin +off +- +none +/triggers/webhook/\\w{32}");
        assertThat(row(schedules, "tick")).matches("tick +schedule +on +skip +- +\\* \\* \\* \\* \\* \\* "
                + "\\(Europe/Paris\\)");
        assertThat(schedules.out()).containsPattern("    next: (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d "
                + "\\+0[12]:00(, )?){5}\n");
    }

    @Test
    void enableDisableBindAndUnbindSwitchATriggerAndAScheduleOffHasNoNextFire() {
        Outcome bound = triggers(Map.of(), "bind", hooks, "github");
        assertThat(row(triggers(Map.of(), "list", hooks), "github")).contains(" on ");
        Outcome unbound = triggers(Map.of(), "unbind", hooks, "github");
        Outcome off = triggers(Map.of(), "disable", ticker, "tick");
        Outcome listedOff = triggers(Map.of(), "list", ticker);
        Outcome on = triggers(Map.of(), "enable", ticker, "tick");

        assertThat(bound.exit()).as(bound.err()).isZero();
        assertThat(bound.out()).containsPattern("The plugin trigger github is bound: calls to " + PATH
                + " start runs\\.");
        assertThat(unbound.out()).contains("The plugin trigger github is unbound: it starts no run.");
        assertThat(row(triggers(Map.of(), "list", hooks), "github")).contains(" off ");
        assertThat(off.out()).contains("The schedule trigger tick is off");
        assertThat(row(listedOff, "tick")).contains(" off ");
        assertThat(listedOff.out()).contains("    next: none while off");
        assertThat(on.out()).containsPattern("The schedule trigger tick is on; it fires next at \\d{4}-");
    }

    @Test
    void aSchedulesMissedTicksPolicyIsSetAndAWebhookHasNone() {
        Outcome runOnce = triggers(Map.of(), "missed-ticks", ticker, "tick", "run_once");
        Outcome webhook = triggers(Map.of(), "missed-ticks", hooks, "hook", "skip");

        assertThat(runOnce.exit()).as(runOnce.err()).isZero();
        assertThat(runOnce.out()).contains("runs once, on the first poll after a start");
        assertThat(row(triggers(Map.of(), "list", ticker), "tick")).contains(" run_once ");
        assertThat(webhook.exit()).isEqualTo(Main.FAILED);
        assertThat(webhook.err()).isEqualTo("hexaflow: Only a schedule has missed ticks; hook is a webhook "
                + "trigger.\n");
    }

    @Test
    void aSecretFromTheEnvironmentIsKeptUnprintedAndTheServerHoldsCallersToItAtTheNewUrl() throws Exception {
        String oldPath = path(triggers(Map.of(), "list", hooks), "hook");
        Outcome auth = triggers(Map.of("HOOK_SECRET", SECRET), "auth", hooks, "hook", "hmac", "--secret-env",
                "HOOK_SECRET");
        Outcome renewed = triggers(Map.of(), "new-url", hooks, "hook");
        Outcome listed = triggers(Map.of(), "list", hooks);
        String newPath = path(listed, "hook");

        assertThat(auth.exit()).as(auth.err()).isZero();
        assertThat(auth.out()).contains("takes only calls whose X-Hexaflow-Signature header holds the body's "
                + "HMAC-SHA256", "The secret is not shown again.");
        assertThat(renewed.out()).contains("is called at " + newPath + " now; its old URL no longer answers.");
        assertThat(newPath).isNotEqualTo(oldPath);
        assertThat(row(listed, "hook")).contains(" hmac X-Hexaflow-Signature ");
        assertThat(auth.out() + auth.err() + listed.out() + renewed.out()).doesNotContain(SECRET);
        String body = "{\"item\": \"tea\", \"count\": 2}";
        String signature = "sha256=" + HexFormat.of().formatHex(WebhookAuth.signature(SECRET,
                body.getBytes(StandardCharsets.UTF_8)));
        try (TestServer server = TestServer.start(dir.resolve("data"))) {
            assertThat(call(server, oldPath, body, signature).statusCode()).isEqualTo(404);
            assertThat(call(server, newPath, body, "sha256=00").statusCode()).isEqualTo(401);
            HttpResponse<String> signed = call(server, newPath, body, signature);
            assertThat(signed.statusCode()).as(signed.body()).isEqualTo(200);
        }
    }

    @Test
    void eachAuthenticationTakesItsOwnFlagsAndAHeaderAuthNamesItsHeader() {
        Outcome header = triggers(Map.of(), "auth", hooks, "hook", "header", "--header", "X-Token", "--secret",
                SECRET);
        String headerRow = row(triggers(Map.of(), "list", hooks), "hook");
        Outcome bearer = triggers(Map.of(), "auth", hooks, "hook", "bearer", "--secret", SECRET);
        String bearerRow = row(triggers(Map.of(), "list", hooks), "hook");
        Outcome none = triggers(Map.of(), "auth", hooks, "hook", "none");

        assertThat(header.out()).contains("takes only calls whose X-Token header holds the secret.");
        assertThat(headerRow).contains(" header X-Token ");
        assertThat(bearer.out()).contains("as a bearer token");
        assertThat(bearerRow).contains(" bearer ").doesNotContain("Authorization");
        assertThat(none.out()).contains("takes calls from anyone with its URL.").doesNotContain("not shown");
        assertThat(row(triggers(Map.of(), "list", hooks), "hook")).contains(" none ");
    }

    @Test
    void anUnknownAppOrTriggerOrATriggerOfTheWrongKindFailsInOneLine() {
        Outcome noApp = triggers(Map.of(), "list", "nope");
        Outcome noTrigger = triggers(Map.of(), "enable", hooks, "end");
        Outcome scheduleAuth = triggers(Map.of(), "auth", ticker, "tick", "bearer", "--secret", SECRET);
        Outcome scheduleUrl = triggers(Map.of(), "new-url", ticker, "tick");

        assertThat(noApp.exit()).isEqualTo(Main.FAILED);
        assertThat(noApp.err()).startsWith("hexaflow: App not found. (see hexaflow apps list for the apps")
                .hasLineCount(1);
        assertThat(noTrigger.err()).startsWith("hexaflow: The app's published workflow has no trigger end.");
        assertThat(scheduleAuth.exit()).isEqualTo(Main.FAILED);
        assertThat(scheduleAuth.err()).contains("A schedule has no URL; tick is a schedule trigger.");
        assertThat(scheduleUrl.err()).contains("A schedule has no URL");
    }

    @Test
    void wrongUsageIsRefusedWithExit2NamingWhatToDoAndChangesNothing() {
        assertUsage(triggers(Map.of(), "frobnicate"), "unknown triggers command 'triggers frobnicate'; try: "
                + "triggers list APP_ID");
        assertUsage(triggers(Map.of(), "list"), "'triggers list' is not a triggers command; try:");
        assertUsage(triggers(Map.of(), "missed-ticks", ticker, "tick", "sometimes"),
                "triggers missed-ticks: missed ticks is 'skip' or 'run_once', not 'sometimes'");
        assertUsage(triggers(Map.of(), "auth", hooks, "hook", "basic"), "use none, header, bearer or hmac");
        assertUsage(triggers(Map.of(), "auth", hooks, "hook", "bearer"), "triggers auth bearer needs the secret: "
                + "give --secret-env NAME");
        assertUsage(triggers(Map.of(), "auth", hooks, "hook", "hmac", "--secret", "short"), "at least 16");
        assertUsage(triggers(Map.of(), "auth", hooks, "hook", "header", "--secret", SECRET),
                "triggers auth header needs --header NAME");
        assertUsage(triggers(Map.of(), "auth", hooks, "hook", "bearer", "--header", "X", "--secret", SECRET),
                "takes no --header");
        assertUsage(triggers(Map.of(), "auth", hooks, "hook", "none", "--secret", SECRET), "takes no --header or "
                + "secret");
        assertUsage(triggers(Map.of(), "auth", hooks, "hook", "hmac", "--secret-env", "UNSET_SECRET"),
                "--secret-env names UNSET_SECRET, which is not set in the environment");
        assertUsage(triggers(Map.of("S", SECRET), "auth", hooks, "hook", "hmac", "--secret-env", "S", "--secret",
                SECRET), "--secret or --secret-env, not both");
        assertUsage(triggers(Map.of(), "list", hooks, "--secret", SECRET), "--secret does not go with triggers "
                + "list; it goes with triggers auth");
        assertUsage(triggers(Map.of(), "enable", hooks, "hook", "--mcp", "x"), "--mcp does not go with triggers "
                + "enable");
        assertUsage(main(Map.of(), "apps", "list", "--secret-env", "S"), "--secret-env goes with the triggers "
                + "auth commands");
        assertUsage(main(Map.of(), "apps", "list", "--header", "X=1"), "--header goes with the tools and triggers "
                + "auth commands");
        assertThat(row(triggers(Map.of(), "list", hooks), "hook")).contains(" none ");
    }

    @Test
    void bindIsEnableAndUnbindIsDisable() {
        Map<String, String> env = Map.of();
        assertThat(CommandLine.parse(List.of("triggers", "bind", "a", "n"), env))
                .isEqualTo(CommandLine.parse(List.of("triggers", "enable", "a", "n"), env));
        assertThat(CommandLine.parse(List.of("triggers", "unbind", "a", "n"), env))
                .isEqualTo(CommandLine.parse(List.of("triggers", "disable", "a", "n"), env));
        assertThat(CommandLine.parse(List.of("triggers", "auth", "a", "n", "bearer", "--secret", SECRET), env)
                .toString()).as("a command's own string form").doesNotContain(SECRET);
    }

    private static void assertUsage(Outcome outcome, String message) {
        assertThat(outcome.exit()).as(outcome.err()).isEqualTo(Main.USAGE);
        assertThat(outcome.err()).contains(message).hasLineCount(1);
        assertThat(outcome.out()).isEmpty();
    }

    private String imported(String file) throws Exception {
        Path dsl = Path.of(TriggersCommandsTest.class.getResource("/apps/" + file).toURI());
        Outcome imported = main(Map.of(), "apps", "import", dsl.toString(), "--data-dir", data());
        assertThat(imported.exit()).as(imported.err()).isZero();
        Matcher id = Pattern.compile("app_id +(\\S+)").matcher(imported.out());
        assertThat(id.find()).isTrue();
        return id.group(1);
    }

    private Outcome triggers(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("triggers"));
        all.addAll(Arrays.asList(args));
        all.addAll(List.of("--data-dir", data()));
        return main(env, all.toArray(String[]::new));
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    /** The list's row of a trigger, its spaces at the end dropped. */
    private static String row(Outcome list, String nodeId) {
        return list.out().lines().filter(line -> line.startsWith(nodeId + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + nodeId + " in\n" + list.out() + list.err()))
                .stripTrailing();
    }

    private static String path(Outcome list, String nodeId) {
        Matcher path = PATH.matcher(row(list, nodeId));
        assertThat(path.find()).as(row(list, nodeId)).isTrue();
        return path.group();
    }

    private static HttpResponse<String> call(TestServer server, String path, String body, String signature)
            throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json")
                .header("X-Shop-Id", "shop-7").header("X-Hexaflow-Signature", signature).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Outcome main(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
