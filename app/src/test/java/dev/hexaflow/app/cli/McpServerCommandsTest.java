package dev.hexaflow.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexaflow mcp-server ...} on the data dir of an app imported by {@code hexaflow apps import}: shown off
 * before it is ever turned on, enabled with a URL, a new URL that differs, disabled keeping its URL, and each mistake
 * said in one line.
 */
class McpServerCommandsTest {

    private static final Pattern PATH = Pattern.compile("URL path: +(/mcp/server/[a-z0-9]{32}/mcp)");

    @TempDir
    Path dir;
    String appId;

    private record Outcome(int exit, String out, String err) {
    }

    @BeforeEach
    void importTheApp() throws Exception {
        Path dsl = Path.of(McpServerCommandsTest.class.getResource("/apps/echo.yml").toURI());
        Outcome imported = main("apps", "import", dsl.toString(), "--data-dir", data());
        assertThat(imported.exit()).as(imported.err()).isZero();
        Matcher id = Pattern.compile("app_id +(\\S+)").matcher(imported.out());
        assertThat(id.find()).isTrue();
        appId = id.group(1);
    }

    @Test
    void anAppsServerIsShownEnabledGivenANewUrlAndDisabled() {
        Outcome never = mcp("show", appId);
        assertThat(never.exit()).as(never.err()).isZero();
        assertThat(never.out()).contains("Tool:        Echo", "MCP server:  off (never turned on");

        Outcome on = mcp("enable", appId);
        assertThat(on.out()).contains("MCP server:  on", "Description: Says back what it is told.");
        String first = path(on);
        Outcome renewed = mcp("new-url", appId);
        assertThat(renewed.out()).contains("The old URL stops answering at once.");
        assertThat(path(renewed)).isNotEqualTo(first);
        Outcome off = mcp("disable", appId);
        assertThat(off.out()).contains("MCP server:  off");
        assertThat(path(mcp("show", appId))).isEqualTo(path(renewed));
    }

    @Test
    void mistakesAreSaidInOneLine() {
        Outcome noApp = mcp("enable", "no-such-app");
        assertThat(noApp.exit()).isEqualTo(Main.FAILED);
        assertThat(noApp.err()).isEqualTo("hexaflow: App not found. (see hexaflow apps list for the apps)\n");
        Outcome noServer = mcp("new-url", appId);
        assertThat(noServer.exit()).isEqualTo(Main.FAILED);
        assertThat(noServer.err()).contains("The app has no MCP server; turn it on first.");
        Outcome unknown = mcp("start", appId);
        assertThat(unknown.exit()).isEqualTo(Main.USAGE);
        assertThat(unknown.err()).contains("unknown mcp-server command 'mcp-server start " + appId + "'");
        Outcome short_ = mcp("show");
        assertThat(short_.exit()).isEqualTo(Main.USAGE);
        assertThat(short_.err()).contains("is not an mcp-server command; try: mcp-server show APP_ID");
    }

    private static String path(Outcome outcome) {
        Matcher path = PATH.matcher(outcome.out());
        assertThat(path.find()).as(outcome.out() + outcome.err()).isTrue();
        return path.group(1);
    }

    private Outcome mcp(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "mcp-server";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--data-dir";
        all[args.length + 2] = data();
        return main(all);
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    private static Outcome main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
