package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.web.HeadlessChromium;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real headless Chromium against a real server: signing in with the admin token, the runs list, a
 * failed run's timeline opened from the keyboard to the failing node's error, a phone-wide window, signing out; an
 * app's triggers switched on and off; and every page checked by axe-core (WCAG 2 A and AA, and its best practices:
 * landmarks, heading order) with no violation. One server and one browser for the class. Skipped where Chromium is
 * not installed.
 */
class ConsoleBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String AXE = resource("/axe/axe.min.js");

    @TempDir
    static Path dataDir;
    @TempDir
    static Path profile;

    private static TestServer server;
    private static ChromeDriver browser;
    private static JsonNode fails;
    private static String failedRunId;

    @BeforeAll
    static void start() {
        Path[] chromium = HeadlessChromium.installed().orElse(null);
        Assumptions.assumeTrue(chromium != null, "Chromium and chromedriver are not installed "
                + "(apt-get install chromium chromium-driver)");
        server = TestServer.start(dataDir);
        fails = server.importApp("fails.yml");
        JsonNode run = ServiceApi.json(server.api(fails.get("api_key").asText()).postJson("/v1/workflows/run",
                ServiceApi.run(Map.of(), "blocking", "ada")));
        assertThat(run.at("/data/status").asText()).isEqualTo("failed");
        failedRunId = run.get("workflow_run_id").asText();
        browser = HeadlessChromium.start(chromium, profile, 1280, 900);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anOperatorSignsInFindsTheFailedRunAndReadsTheFailingNodesErrorOnItsTimeline() {
        browser.manage().window().setSize(new Dimension(1280, 900));
        browser.get(server.hexaflow.baseUrl() + "/");
        browser.manage().deleteAllCookies();
        browser.get(server.hexaflow.baseUrl() + "/console#/runs");
        WebElement token = wait(WAIT).until(d -> d.findElement(By.id("token")).isDisplayed()
                ? d.findElement(By.id("token")) : null);
        assertThat(violations()).as("the sign-in page").isEmpty();
        token.sendKeys("not the token", Keys.ENTER);
        wait(WAIT).until(d -> d.findElement(By.id("sign-in-error")).getText().equals("That is not the admin token."));

        token.sendKeys(TestServer.ADMIN_TOKEN, Keys.ENTER);
        waitForHeading("Runs");
        assertThat(browser.executeScript("return document.cookie")).as("a cookie no script reads").isEqualTo("");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("filter-status")))
                .selectByValue("failed");
        browser.findElement(By.cssSelector(".filters button[type=submit]")).click();
        wait(WAIT).until(d -> d.getCurrentUrl().contains("status=failed")
                && !d.findElements(By.cssSelector("#runs-table tbody tr")).isEmpty());
        List<WebElement> rows = browser.findElements(By.cssSelector("#runs-table tbody tr"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getText()).contains("Fails", "failed", "the printer is on fire");
        assertThat(violations()).as("the runs list").isEmpty();
        HeadlessChromium.screenshot(browser, "console-1-runs");

        rows.get(0).findElement(By.tagName("a")).click();
        waitForHeading("Run of Fails");
        assertThat(browser.findElement(By.id("run-error")).getText()).contains("the printer is on fire");
        WebElement bar = browser.findElement(By.cssSelector(".timeline .bar[data-node-id=burn]"));
        assertThat(bar.findElement(By.className("bar-title")).getText()).isEqualTo("Print the report");
        assertThat(bar.getAttribute("textContent")).as("its text alternative").contains("code", "failed");
        assertThat(browser.findElements(By.cssSelector(".timeline .bar"))).as("start and the failed node").hasSize(2);
        bar.sendKeys(Keys.ENTER);
        WebElement error = wait(WAIT).until(d -> d.findElement(By.cssSelector("#node-detail .node-error")));
        assertThat(error.getText()).contains("the printer is on fire");
        assertThat(bar.getAttribute("aria-expanded")).isEqualTo("true");
        assertThat(browser.findElement(By.id("node-heading")).getText()).isEqualTo("Node: Print the report");
        assertThat(violations()).as("the run with its node open").isEmpty();
        HeadlessChromium.screenshot(browser, "console-2-run");

        browser.manage().window().setSize(new Dimension(390, 844));
        assertThat(browser.executeScript("return document.documentElement.scrollWidth"
                + " <= document.documentElement.clientWidth")).as("no sideways scroll of the page").isEqualTo(true);
        assertThat(violations()).as("the run at 390 px").isEmpty();
        HeadlessChromium.screenshot(browser, "console-3-run-phone");

        browser.findElement(By.id("sign-out")).click();
        wait(WAIT).until(d -> d.findElement(By.id("token")).isDisplayed());
        assertThat(browser.executeAsyncScript("const done = arguments[0]; fetch('/admin/runs').then(r => "
                + "done(r.status));")).as("the session has ended").isEqualTo(401L);
    }

    @Test
    void everyPageOfTheConsoleHasNoAccessibilityViolationAndFitsAPhone() {
        java.net.http.HttpResponse<String> base = server.admin("POST", "/admin/knowledge/bases", "application/json",
                "{\"name\": \"Handbook\"}");
        assertThat(base.statusCode()).as(base.body()).isEqualTo(201);
        assertThat(server.admin("POST", "/admin/knowledge/bases/" + TestServer.json(base).get("id").asText()
                + "/documents", "application/json", "{\"name\": \"leave.md\", \"text\": \"25 days of paid leave.\"}")
                .statusCode()).isEqualTo(201);
        JsonNode tea = server.importApp("tea-chat.yml");
        String conversation = ServiceApi.json(server.api(tea.get("api_key").asText()).postJson("/v1/chat-messages",
                Map.of("inputs", Map.of(), "query", "<b>tea?</b>", "response_mode", "blocking", "user", "ada")))
                .get("conversation_id").asText();
        JsonNode review = server.importApp("review.yml");
        assertThat(ServiceApi.json(server.api(review.get("api_key").asText()).postJson("/v1/workflows/run",
                Map.of("inputs", Map.of("draft", "the plan"), "response_mode", "blocking", "user", "ada")))
                .get("data").get("status").asText()).isEqualTo("paused");
        signIn();
        browser.manage().window().setSize(new Dimension(390, 844));
        String appId = fails.get("app_id").asText();
        String chat = "#/apps/" + tea.get("app_id").asText() + "/conversations";
        Map<String, String> pages = new java.util.LinkedHashMap<>();
        pages.put("#/apps", "Apps");
        pages.put("#/knowledge", "Knowledge bases");
        pages.put("#/health", "Health");
        pages.put("#/forms", "Waiting for a person");
        pages.put("#/apps/" + appId + "/deliveries", "Webhook deliveries of Fails");
        pages.put(chat, "Conversations of Tea chat");
        pages.put(chat + "/" + conversation, "Messages");
        for (Map.Entry<String, String> page : pages.entrySet()) {
            browser.get(server.hexaflow.baseUrl() + "/console" + page.getKey());
            waitForHeading(page.getValue());
            if (page.getKey().equals("#/knowledge")) {
                browser.findElement(By.cssSelector("#view section button")).click();
                wait(WAIT).until(d -> !d.findElements(By.cssSelector("#view section table")).isEmpty());
                assertThat(browser.findElement(By.cssSelector("#view section tbody")).getText())
                        .contains("leave.md", "completed");
            }
            if (page.getKey().equals("#/forms")) {
                wait(WAIT).until(d -> !d.findElements(By.cssSelector("#view tbody tr")).isEmpty());
                assertThat(browser.findElement(By.cssSelector("#view tbody")).getText())
                        .contains("Review", "Please review: the plan");
            }
            assertThat(violations()).as(page.getKey()).isEmpty();
            assertThat(browser.executeScript("return document.documentElement.scrollWidth"
                    + " <= document.documentElement.clientWidth")).as(page.getKey() + " at 390 px").isEqualTo(true);
        }
        assertThat(browser.findElement(By.id("view")).getText()).as("text stays text").contains("Asked: <b>tea?</b>");
        browser.findElement(By.linkText("Its run")).click();
        waitForHeading("Run of Tea chat");
        HeadlessChromium.screenshot(browser, "console-4-chat-run-phone");
        browser.get(server.hexaflow.baseUrl() + "/console#/apps");
        waitForHeading("Apps");
        assertThat(browser.findElement(By.id("view")).getText()).contains("Fails", "app-…", "workflow");
        HeadlessChromium.screenshot(browser, "console-5-apps-phone");
    }

    @Test
    void anOperatorSwitchesAnAppsTriggersOnItsTriggersPageWhichShowsNoSecret() {
        String hooks = server.importApp("webhook-trigger.yml").get("app_id").asText();
        String secret = "a-shared-secret-of-some-length";
        assertThat(server.admin("PUT", "/admin/apps/" + hooks + "/triggers/hook/auth", "application/json",
                "{\"kind\": \"header\", \"header\": \"X-Token\", \"secret\": \"" + secret + "\"}")
                .statusCode()).isEqualTo(200);
        String ticker = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml", resource(
                "/apps/schedule-trigger.yml").replace("'* * * * * *'", "'0 9 * * 1-5'"))).get("app_id").asText();
        signIn();
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.get(server.hexaflow.baseUrl() + "/console#/apps");
        waitForHeading("Apps");

        click(By.cssSelector("a[href='#/apps/" + hooks + "/triggers']"));
        waitForHeading("Triggers of Order hook");
        assertThat(browser.findElement(By.id("view")).getText()).contains("webhook", "/triggers/webhook/",
                "header (header X-Token)", "plugin").doesNotContain(secret);
        assertThat(violations()).as("the webhooks' triggers at 390 px").isEmpty();
        assertThat(browser.executeScript("return document.documentElement.scrollWidth"
                + " <= document.documentElement.clientWidth")).as("no sideways scroll").isEqualTo(true);
        HeadlessChromium.screenshot(browser, "console-6-triggers-phone");
        browser.findElement(By.id("switch-github")).sendKeys(Keys.ENTER);
        // The page draws the list again once the switch is kept: the button found before may be gone.
        wait(WAIT).ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(By.id("switch-github")).getText().equals("Unbind"));
        assertThat(browser.findElement(By.id("announce")).getAttribute("textContent"))
                .isEqualTo("New issue is bound.");
        assertThat(browser.switchTo().activeElement().getAttribute("id")).as("focus stays on the switch")
                .isEqualTo("switch-github");
        assertThat(TestServer.json(server.admin("GET", "/admin/apps/" + hooks + "/triggers/github", null, null))
                .get("enabled").asBoolean()).isTrue();

        browser.get(server.hexaflow.baseUrl() + "/console#/apps/" + ticker + "/triggers");
        waitForHeading("Triggers of Ticker");
        assertThat(browser.findElements(By.cssSelector("#view dd li"))).as("the next five fire times").hasSize(5);
        assertThat(browser.findElement(By.id("view")).getText()).contains("0 9 * * 1-5", "Europe/Paris", "skipped");
        browser.findElement(By.id("switch-tick")).click();
        wait(WAIT).ignoring(StaleElementReferenceException.class)
                .until(d -> d.findElement(By.id("switch-tick")).getText().equals("Turn on"));
        assertThat(browser.findElement(By.id("view")).getText()).contains("none while it is off");
        assertThat(violations()).as("a schedule switched off").isEmpty();
    }

    @Test
    void theAppsPageShowsEachAppsLimitsItsOwnOrTheDefaults() {
        String limited = server.importApp("echo.yml").get("app_id").asText();
        assertThat(server.admin("PUT", "/admin/apps/" + limited + "/limits", "application/json",
                "{\"rate_per_key\": {\"per_minute\": 60, \"burst\": 10}, \"active_runs\": 8, \"budgets\": "
                + "[{\"scope\": \"end_user\", \"period\": \"day\", \"measure\": \"tokens\", "
                + "\"amount\": 20000}]}")
                .statusCode()).isEqualTo(200);
        signIn();
        browser.manage().window().setSize(new Dimension(390, 844));
        browser.get(server.hexaflow.baseUrl() + "/console#/apps");
        waitForHeading("Apps");
        WebElement section = wait(WAIT).until(d -> d.findElement(By.cssSelector(
                "section[aria-labelledby='app-" + limited + "']")));
        assertThat(section.getText()).contains("Limits", "Its own.", "60 a minute, bursts of 10", "8",
                "end user: 20000 tokens a day", "UTC");
        String other = fails.get("app_id").asText();
        assertThat(browser.findElement(By.cssSelector("section[aria-labelledby='app-" + other + "']")).getText())
                .contains("The server's defaults (HEXAFLOW_LIMIT_*): it has none of its own.", "no limit");
        assertThat(violations()).as("the apps with their limits at 390 px").isEmpty();
        assertThat(browser.executeScript("return document.documentElement.scrollWidth"
                + " <= document.documentElement.clientWidth")).as("no sideways scroll").isEqualTo(true);
        // Left on another page: a next test that opens #/apps must not find this page's links as it is redrawn.
        browser.get(server.hexaflow.baseUrl() + "/console#/health");
        waitForHeading("Health");
    }

    private void signIn() {
        browser.get(server.hexaflow.baseUrl() + "/console");
        String status = (String) browser.executeAsyncScript("const done = arguments[1]; fetch('/console/session', "
                + "{method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({token: "
                + "arguments[0]})}).then(r => done(String(r.status)));", TestServer.ADMIN_TOKEN);
        assertThat(status).isEqualTo("200");
    }

    /** axe-core's violations on the page as it is, one line each: rule, and where. */
    @SuppressWarnings("unchecked")
    private static List<String> violations() {
        if (!Boolean.TRUE.equals(browser.executeScript("return typeof axe !== 'undefined'"))) {
            browser.executeScript(AXE);
        }
        return (List<String>) browser.executeAsyncScript("""
                const done = arguments[0];
                axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
                    'best-practice']}}).then(result => done(result.violations.flatMap(v => v.nodes.map(n =>
                    v.id + ' at ' + n.target.join(' ') + ': ' + n.failureSummary))));""");
    }

    /** Clicks what {@code target} finds, found anew while the page draws its list again (each app's limits). */
    private static void click(By target) {
        wait(WAIT).ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(target).click();
            return true;
        });
    }

    /** Waits for the view's heading; a view drawn again meanwhile leaves stale elements, which are looked for anew. */
    private static void waitForHeading(String text) {
        wait(WAIT).ignoring(StaleElementReferenceException.class).withMessage(() -> "the heading " + text
                + "; the page shows: " + browser.findElement(By.tagName("main")).getText())
                .until(d -> d.findElements(By.cssSelector("#view h1")).stream()
                .anyMatch(h -> h.getText().equals(text)));
    }

    private static WebDriverWait wait(Duration timeout) {
        return new WebDriverWait(browser, timeout);
    }

    private static String resource(String name) {
        try (InputStream in = ConsoleBrowserTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
