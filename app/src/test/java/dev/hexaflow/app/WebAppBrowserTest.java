package dev.hexaflow.app;

import dev.hexaflow.engine.EngineConfiguration;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.web.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page of an app in a real headless Chromium (Debian's, with its chromedriver), against a real server:
 * the demo app's form, run, streamed result and steps; a slow answer streaming in and stopped; a file uploaded
 * into a file input; every kind of field; markdown rendered with nothing in it run; a phone-sized window.
 * Screenshots of each state are kept under {@code target/screenshots/}. Skipped where Chromium is not installed.
 */
class WebAppBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** A 4 by 4 image as a data URL: an app's icon shown from its icon_url. */
    private static final String ICON = "data:image/svg+xml;base64," + java.util.Base64.getEncoder().encodeToString(
            ("<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect width='4' height='4' fill='teal'/>"
                    + "</svg>").getBytes(java.nio.charset.StandardCharsets.UTF_8));

    @TempDir
    static Path dataDir;

    private static Path[] chromium;
    private static FakeModelServer model;
    private static TestServer server;

    @TempDir
    Path profile;

    private ChromeDriver browser;

    @BeforeAll
    static void start() {
        chromium = HeadlessChromium.installed().orElse(null);
        Assumptions.assumeTrue(chromium != null, "Chromium and chromedriver are not installed "
                + "(apt-get install chromium chromium-driver)");
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(
                EngineConfiguration.fromEnvironment(Map.of()).withLlm(model.baseUrl(), "sk-test")));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @BeforeEach
    void openBrowser() {
        browser = HeadlessChromium.start(chromium, profile, 1280, 900);
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void theDemoAppRunsFromItsPageShowingItsStepsAndResult() {
        open(siteCodeOf("Holiday counter"));
        WebElement year = fieldLabelled("Year");
        assertThat(year.getAttribute("value")).isEqualTo("2026");
        assertThat(year.getAttribute("maxlength")).isEqualTo("4");
        assertThat(browser.findElement(By.id("app-description")).getText()).startsWith("Counts the university");
        assertThat(browser.findElement(By.id("app-icon")).getText()).isEqualTo("\uD83C\uDF89");
        HeadlessChromium.screenshot(browser, "demo-1-form");

        year.clear();
        year.sendKeys("2026");
        browser.findElement(By.id("run-button")).click();
        waitForStatus("Finished");

        assertThat(browser.findElement(By.id("result")).getText()).contains("2026 has").contains(
                "university holidays").contains("Canada Day (2026-07-01)");
        List<WebElement> steps = browser.findElements(By.cssSelector("#steps .step"));
        assertThat(steps).extracting(step -> step.findElement(By.className("step-title")).getText())
                .containsExactly("Start", "Read the holidays", "Count the year's holidays", "Any holidays?",
                        "List them", "Answer", "End");
        assertThat(steps).allSatisfy(step -> {
            assertThat(step.getAttribute("class")).contains("succeeded");
            assertThat(step.findElement(By.className("step-time")).getText()).matches("done · \\d+\\.\\d+ s");
        });
        assertThat(browser.findElement(By.id("run-button")).isEnabled()).isTrue();
        assertThat(browser.findElement(By.id("stop-button")).isDisplayed()).isFalse();
        @SuppressWarnings("unchecked")
        List<String> fetched = (List<String>) browser.executeScript(
                "return performance.getEntriesByType('resource').map(e => e.name)");
        assertThat(fetched).as("everything the page fetched").isNotEmpty()
                .allMatch(url -> url.startsWith(server.hexaflow.baseUrl() + "/"));
        HeadlessChromium.screenshot(browser, "demo-2-finished");
    }

    @Test
    void aSlowAnswerAppearsAsItStreamsAndStopEndsTheRun() {
        List<String> words = List.of("Streaming", "one", "word", "at", "a", "time", "until", "someone", "presses",
                "stop", "which", "they", "will", "long", "before", "this", "sentence", "reaches", "its", "end");
        model.answer(Script.text(String.join(" ", words), 5, 20).pausing(400));
        JsonNode chat = server.importApp("chat.yml");
        open(chat.get("site_code").asText());

        fieldLabelled("q").sendKeys("Say something slowly");
        browser.findElement(By.id("run-button")).click();
        wait(WAIT).until(d -> d.findElement(By.id("result")).getText().contains("Streaming one word"));

        // Part of the answer is on the page while the run goes on.
        assertThat(browser.findElement(By.id("run-status")).getText()).isEqualTo("Running…");
        assertThat(browser.findElement(By.id("result")).getText()).doesNotContain("its end");
        HeadlessChromium.screenshot(browser, "stream-1-streaming");

        browser.findElement(By.id("stop-button")).click();
        waitForStatus("Stopped");

        assertThat(browser.findElement(By.id("result")).getText()).doesNotContain("its end");
        assertThat(browser.findElement(By.id("stop-button")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.cssSelector("#steps .step.stopped .step-title")).getText())
                .isEqualTo("LLM");
        JsonNode logs = TestServer.json(server.api(chat.get("api_key").asText()).get("/v1/workflows/logs"));
        assertThat(logs.at("/data/0/workflow_run/status").asText()).isEqualTo("stopped");
        String user = (String) browser.executeScript("return localStorage.getItem('hexaflow.user')");
        assertThat(user).matches("web-[0-9a-f]{32}");
        assertThat(logs.at("/data/0/created_by_end_user/session_id").asText()).isEqualTo(user);
        browser.navigate().refresh();
        assertThat(browser.executeScript("return localStorage.getItem('hexaflow.user')")).as("kept by the browser")
                .isEqualTo(user);
        HeadlessChromium.screenshot(browser, "stream-2-stopped");
    }

    @Test
    void theKeyboardAloneFillsRunsAndStops() {
        model.answer(Script.text("Typed without a mouse and stopped before the end of this answer", 5, 20)
                .pausing(400));
        open(server.importApp("chat.yml").get("site_code").asText());

        WebElement page = browser.findElement(By.tagName("body"));
        page.sendKeys(Keys.TAB);
        assertThat(focused().getText()).isEqualTo("Skip to the form");
        focused().sendKeys(Keys.TAB);
        assertThat(focused().getAttribute("id")).isEqualTo(fieldLabelled("q").getAttribute("id"));
        focused().sendKeys("Hello from the keyboard", Keys.TAB);
        assertThat(focused().getAttribute("id")).isEqualTo("run-button");
        focused().sendKeys(Keys.ENTER);
        wait(WAIT).until(d -> d.findElement(By.id("result")).getText().contains("Typed without"));

        assertThat(focused().getAttribute("id")).as("focus moves to Stop").isEqualTo("stop-button");
        focused().sendKeys(Keys.ENTER);
        waitForStatus("Stopped");

        assertThat(focused().getAttribute("id")).as("and back to Run").isEqualTo("run-button");
        HeadlessChromium.screenshot(browser, "keyboard-1-stopped");
    }

    private WebElement focused() {
        return browser.switchTo().activeElement();
    }

    @Test
    void aFileUploadedIntoAFileInputIsWhatTheRunReads() throws Exception {
        JsonNode reader = server.importApp("reader.yml");
        open(reader.get("site_code").asText());
        Path notes = Files.writeString(profile.resolve("minutes.txt"), "Minutes of the meeting: bring snacks.");
        Path photo = Files.write(profile.resolve("photo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        WebElement input = fieldLabelled("Document");
        assertThat(input.getAttribute("accept")).contains(".txt").contains(".pdf").doesNotContain(".png");

        input.sendKeys(photo.toString());
        WebElement refused = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".file.failed")));
        assertThat(refused.getText()).contains("This field takes documents; photo.png is not one.");
        refused.findElement(By.tagName("button")).click();

        input.sendKeys(notes.toString());
        WebElement uploaded = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".file.uploaded")));
        assertThat(uploaded.getText()).contains("minutes.txt").contains("Uploaded");
        HeadlessChromium.screenshot(browser, "upload-1-uploaded");

        browser.findElement(By.id("run-button")).click();
        waitForStatus("Finished");

        assertThat(browser.findElement(By.id("result")).getText()).contains("bring snacks");
        HeadlessChromium.screenshot(browser, "upload-2-finished");
    }

    @Test
    void theFormFollowsTheStartNodeAndSaysWhatIsMissing() throws Exception {
        JsonNode form = server.importApp("form.yml");
        open(form.get("site_code").asText());

        WebElement name = fieldLabelled("Your name");
        assertThat(name.getAttribute("maxlength")).isEqualTo("20");
        assertThat(name.getAttribute("aria-required")).isEqualTo("true");
        WebElement about = fieldLabelled("About you");
        assertThat(about.getTagName()).isEqualTo("textarea");
        assertThat(about.getAttribute("value")).isEqualTo("Likes tea");
        WebElement colour = fieldLabelled("Colour");
        assertThat(colour.getTagName()).isEqualTo("select");
        assertThat(colour.findElements(By.tagName("option"))).extracting(WebElement::getText)
                .containsExactly("Choose one", "red", "green", "blue");
        assertThat(colour.getAttribute("value")).isEqualTo("green");
        assertThat(fieldLabelled("How many").getAttribute("type")).isEqualTo("number");
        assertThat(fieldLabelled("How many").getAttribute("value")).isEqualTo("3");
        WebElement loud = fieldLabelled("Shout it");
        assertThat(loud.getAttribute("type")).isEqualTo("checkbox");
        assertThat(loud.isSelected()).isFalse();
        WebElement docs = fieldLabelled("Attachments");
        assertThat(docs.getAttribute("multiple")).isEqualTo("true");
        assertThat(browser.findElements(By.cssSelector("label .required"))).hasSize(2);

        browser.findElement(By.id("run-button")).click();
        WebElement nameError = browser.findElement(By.id(name.getAttribute("id") + "-error"));
        assertThat(nameError.getText()).isEqualTo("Please fill in Your name.");
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo(name.getAttribute("id"));
        assertThat(name.getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(browser.findElement(By.id("result-panel")).isDisplayed()).isFalse();
        HeadlessChromium.screenshot(browser, "form-1-missing");

        docs.sendKeys(Files.writeString(profile.resolve("a.md"), "# a").toString());
        wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".file.uploaded")));
        colour.findElement(By.cssSelector("option[value=blue]")).click();
        loud.sendKeys(Keys.SPACE);
        name.sendKeys("Ada", Keys.ENTER);
        waitForStatus("Finished");

        WebElement result = browser.findElement(By.id("result"));
        assertThat(result.findElement(By.tagName("h3")).getText()).isEqualTo("Hello Ada");
        assertThat(result.findElement(By.tagName("strong")).getText()).isEqualTo("blue");
        assertThat(result.getText()).contains("x3, loud: true, about: Likes tea, files: 1");
        HeadlessChromium.screenshot(browser, "form-2-finished");
    }

    @Test
    void outputsShowAsMarkdownAndNothingInThemRuns() {
        JsonNode app = server.importApp("markdown.yml");
        server.admin("PUT", "/admin/apps/" + app.get("app_id").asText() + "/site", "application/json",
                "{\"copyright\": \"2026 Example Co\", \"privacy_policy\": \"https://example.org/privacy\", "
                        + "\"custom_disclaimer\": \"Answers may be wrong.\", \"show_workflow_steps\": false, "
                        + "\"icon_type\": \"image\", \"icon_url\": \"" + ICON + "\"}");
        open(app.get("site_code").asText());
        assertThat(browser.findElement(By.id("run-form")).findElements(By.cssSelector("input, select, textarea")))
                .isEmpty();
        WebElement icon = browser.findElement(By.cssSelector("#app-icon img"));
        assertThat(icon.getAttribute("src")).isEqualTo(ICON);
        assertThat(browser.executeScript("return arguments[0].naturalWidth", icon)).as("the image loaded")
                .isEqualTo(4L);

        browser.findElement(By.id("run-button")).click();
        waitForStatus("Finished");

        WebElement result = browser.findElement(By.id("result"));
        assertThat(result.findElement(By.tagName("h4")).getText()).isEqualTo("Report");
        assertThat(result.findElements(By.cssSelector("ul > li"))).extracting(WebElement::getText)
                .containsExactly("first", "second");
        assertThat(result.findElements(By.cssSelector("ol > li"))).extracting(WebElement::getText)
                .containsExactly("one", "two");
        assertThat(result.findElement(By.tagName("blockquote")).getText()).isEqualTo("quoted words");
        assertThat(result.findElements(By.cssSelector("table td"))).extracting(WebElement::getText)
                .containsExactly("tea", "2");
        assertThat(result.findElement(By.cssSelector("pre > code.language-js")).getText())
                .isEqualTo("const answer = '<b>not bold</b>';");
        assertThat(result.findElement(By.tagName("em")).getText()).isEqualTo("leaning");
        assertThat(result.findElements(By.tagName("b"))).isEmpty();
        WebElement safe = result.findElement(By.linkText("safe link"));
        assertThat(safe.getAttribute("href")).isEqualTo("https://example.org/docs");
        assertThat(safe.getAttribute("rel")).contains("noopener");
        assertThat(result.getText()).contains("<script>window.hexaflowPwned = 'script'</script>")
                .contains("<img src=\"x\" onerror=").contains("bad link");
        assertThat(result.findElements(By.cssSelector("script, img, iframe, [onerror]"))).isEmpty();
        assertThat(result.findElements(By.tagName("a"))).extracting(a -> a.getAttribute("href"))
                .allMatch(href -> href.startsWith("https://"));
        assertThat(browser.executeScript("return window.hexaflowPwned === undefined")).isEqualTo(true);
        assertThat(browser.findElement(By.id("steps-panel")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("copyright")).getText()).isEqualTo("© 2026 Example Co");
        assertThat(browser.findElement(By.id("privacy")).getAttribute("href")).isEqualTo(
                "https://example.org/privacy");
        assertThat(browser.findElement(By.id("disclaimer")).getText()).isEqualTo("Answers may be wrong.");
        HeadlessChromium.screenshot(browser, "markdown-1-desktop");

        browser.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        assertThat(browser.executeScript(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"))
                .isEqualTo(true);
        HeadlessChromium.screenshot(browser, "markdown-2-phone");
    }

    @Test
    void theLandingPageFitsAPhoneAndItsTextAndLinksKeepTheirContrast() {
        browser.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        browser.get(server.hexaflow.baseUrl() + "/");

        assertThat(browser.getTitle()).isEqualTo("Hexaflow");
        assertThat(browser.executeScript(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"))
                .isEqualTo(true);
        // WCAG 2 AA: 4.5:1 for body text; each link and paragraph against the panel it sits on.
        Object lowest = browser.executeScript("""
                const rgb = c => c.match(/\\d+/g).slice(0, 3).map(Number).map(v => v / 255)
                    .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
                const lum = c => { const [r, g, b] = rgb(c); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
                const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
                const panel = getComputedStyle(document.querySelector('.panel')).backgroundColor;
                return Math.min(...[...document.querySelectorAll('.panel a, .panel p, .panel li')]
                    .map(e => ratio(getComputedStyle(e).color, panel)));""");
        assertThat(((Number) lowest).doubleValue()).isGreaterThanOrEqualTo(4.5);
        HeadlessChromium.screenshot(browser, "landing-1-phone");
    }

    @Test
    void aFailedRunIsToldInWordsWithTheStepThatFailed() {
        open(server.importApp("fails.yml").get("site_code").asText());

        browser.findElement(By.id("run-button")).click();
        waitForStatus("The workflow failed");

        assertThat(browser.findElement(By.id("run-status")).getText()).contains("the printer is on fire");
        WebElement failed = browser.findElement(By.cssSelector("#steps .step.failed"));
        assertThat(failed.findElement(By.className("step-title")).getText()).isEqualTo("Print the report");
        assertThat(failed.findElement(By.className("step-error")).getText()).contains("the printer is on fire");
        HeadlessChromium.screenshot(browser, "failed-1");
    }

    @Test
    void aPageOpenWhileTheServerRestartsGetsANewTokenAndRuns(@TempDir Path restartDir) {
        int port;
        String code;
        try (TestServer first = TestServer.start(TestServer.config(restartDir))) {
            port = first.hexaflow.port();
            code = first.importApp("echo.yml").get("site_code").asText();
            browser.get(first.hexaflow.baseUrl() + "/apps/" + code);
            wait(WAIT).until(d -> d.findElement(By.id("run-button")).isEnabled());
        }
        try (TestServer second = TestServer.start(TestServer.config(restartDir).withPort(port))) {
            assertThat(second.hexaflow.baseUrl()).endsWith(":" + port);
            fieldLabelled("Query").sendKeys("still here?");
            browser.findElement(By.id("run-button")).click();
            waitForStatus("Finished");

            assertThat(browser.findElement(By.id("result")).getText()).contains("You said: still here? (calm)");
        }
    }

    @Test
    void aBrowserThatKeptAnIdOfAnotherFormRunsAsANewWebUserAndNeverAsThatId() {
        JsonNode app = server.importApp("echo.yml");
        open(app.get("site_code").asText());
        browser.executeScript("localStorage.setItem('hexaflow.user', 'alice')");
        open(app.get("site_code").asText());

        fieldLabelled("Query").sendKeys("who am I?");
        browser.findElement(By.id("run-button")).click();
        waitForStatus("Finished");

        String user = (String) browser.executeScript("return localStorage.getItem('hexaflow.user')");
        assertThat(user).matches("web-[0-9a-f]{32}");
        JsonNode logs = TestServer.json(server.api(app.get("api_key").asText()).get("/v1/workflows/logs"));
        assertThat(logs.get("data")).extracting(item -> item.at("/created_by_end_user/session_id").asText())
                .containsExactly(user);
    }

    @Test
    void aPageTurnedOffSaysSoAndItsTokenStopsWorking() {
        JsonNode app = server.importApp("echo.yml");
        String code = app.get("site_code").asText();
        open(code);
        String token = (String) browser.executeAsyncScript("const done = arguments[0];"
                + "fetch('/apps/' + document.body.dataset.siteCode + '/token', {method: 'POST'})"
                + ".then(r => r.json()).then(b => done(b.access_token));");

        server.admin("PUT", "/admin/apps/" + app.get("app_id").asText() + "/site", "application/json",
                "{\"enable_site\": false}");
        browser.navigate().refresh();

        assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Page not found");
        assertThat(browser.findElement(By.id("not-found-message")).getText()).contains("turned off");
        assertThat(server.send("GET", "/v1/site", null, null, token).statusCode()).isEqualTo(403);
        HeadlessChromium.screenshot(browser, "off-1-not-found");
    }

    private void open(String siteCode) {
        browser.get(server.hexaflow.baseUrl() + "/apps/" + siteCode);
        wait(WAIT).until(d -> d.findElement(By.id("run-button")).isEnabled()
                || d.findElements(By.cssSelector("#notice:not([hidden])")).size() > 0);
        assertThat(browser.findElement(By.id("notice")).isDisplayed()).as("the page's notice").isFalse();
    }

    /** The control a label names by its text: labels are tied to their fields by {@code for}. */
    private WebElement fieldLabelled(String text) {
        Object id = browser.executeScript("const label = Array.from(document.querySelectorAll('label'))"
                + ".find(l => l.firstChild.textContent === arguments[0]); return label ? label.htmlFor : null;", text);
        assertThat(id).as("the field labelled " + text).isNotNull();
        return browser.findElement(By.id((String) id));
    }

    private void waitForStatus(String start) {
        wait(WAIT).until(d -> d.findElement(By.id("run-status")).getText().startsWith(start));
    }

    private WebDriverWait wait(Duration timeout) {
        return new WebDriverWait(browser, timeout);
    }

    private String siteCodeOf(String name) {
        for (JsonNode app : TestServer.json(server.admin("GET", "/admin/apps", null, null)).get("data")) {
            if (app.get("name").asText().equals(name)) {
                return app.get("site_code").asText();
            }
        }
        throw new AssertionError("no app " + name);
    }
}
