package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.web.HeadlessChromium;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A text generator's web page in a real headless Chromium against the real server, its model a fake on loopback:
 * the form of its inputs, the answer streamed from /v1/completion-messages with the page's token, a stop, and an
 * end user's input and the model's answer shown as text, never run. Skipped where Chromium is not installed; the
 * page's kind is checked over plain HTTP too.
 */
class CompletionPageBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    static Path dataDir;

    private static FakeModelServer model;
    private static TestServer server;
    private static JsonNode poet;

    @TempDir
    Path profile;

    private ChromeDriver browser;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        poet = server.importApp("easy-completion.yml");
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aTextGeneratorsPageIsTheFormMarkedForCompletionMessages() {
        HttpResponse<String> page = server.get("/apps/" + poet.get("site_code").asText());

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("data-mode=\"completion\"").contains("id=\"run-form\"")
                .contains("id=\"stop-button\"").doesNotContain("id=\"composer\"");
        assertThat(server.get("/apps/" + server.importApp("echo.yml").get("site_code").asText()).body())
                .contains("data-mode=\"workflow\"");
    }

    @Test
    void theAnswerStreamsInAndTheEndUsersInputIsData() {
        openBrowser();
        String hostile = "<img src=x onerror=\"document.title='owned'\"> {{style}}";
        model.answer(Script.text("# A poem\n\nWaves <script>document.title='owned'</script> roll", 5, 8));
        open();

        fieldLabelled("Subject").sendKeys(hostile);
        new Select(fieldLabelled("Style")).selectByVisibleText("haiku");
        browser.findElement(By.id("run-button")).click();
        waitForStatus("Finished");

        WebElement result = browser.findElement(By.id("result"));
        assertThat(result.findElement(By.tagName("h3")).getText()).isEqualTo("A poem");
        assertThat(result.getText()).contains("Waves").contains("roll");
        assertThat(result.findElements(By.tagName("script"))).isEmpty();
        assertThat(browser.getTitle()).isNotEqualTo("owned");
        JsonNode sent = model.requests().get(model.requests().size() - 1);
        assertThat(sent.toString()).contains("a haiku poem about <img src=x onerror=")
                .as("an input's braces are not a template").contains("{{style}}");
        assertThat(browser.findElement(By.id("steps-panel")).isDisplayed()).isFalse();
        assertThat(pageUser()).matches("web-[0-9a-f]{32}");
        HeadlessChromium.screenshot(browser, "completion-1-finished");
    }

    @Test
    void aSlowAnswerIsStoppedFromThePage() {
        openBrowser();
        List<String> words = List.of("Slowly", "the", "verse", "unrolls", "line", "by", "line", "until", "someone",
                "stops", "it", "long", "before", "its", "very", "last", "word");
        model.answer(Script.text(String.join(" ", words), 5, 20).pausing(400));
        open();

        fieldLabelled("Subject").sendKeys("patience");
        new Select(fieldLabelled("Style")).selectByVisibleText("limerick");
        browser.findElement(By.id("run-button")).click();
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("result")).getText().contains("Slowly the"));
        assertThat(browser.findElement(By.id("run-status")).getText()).isEqualTo("Running…");
        assertThat(browser.findElement(By.id("stop-button")).isDisplayed()).isTrue();

        browser.findElement(By.id("stop-button")).click();
        waitForStatus("Stopped");

        assertThat(browser.findElement(By.id("result")).getText()).doesNotContain("last word");
        assertThat(browser.findElement(By.id("stop-button")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("run-button")).isEnabled()).isTrue();
        HeadlessChromium.screenshot(browser, "completion-2-stopped");
    }

    private void openBrowser() {
        Path[] chromium = HeadlessChromium.installed().orElse(null);
        Assumptions.assumeTrue(chromium != null, "Chromium and chromedriver are not installed "
                + "(apt-get install chromium chromium-driver)");
        browser = HeadlessChromium.start(chromium, profile, 1280, 900);
    }

    private void open() {
        browser.get(server.hexaflow.baseUrl() + "/apps/" + poet.get("site_code").asText());
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("run-button")).isEnabled()
                || d.findElements(By.cssSelector("#notice:not([hidden])")).size() > 0);
        assertThat(browser.findElement(By.id("notice")).isDisplayed()).as("the page's notice").isFalse();
    }

    private String pageUser() {
        return (String) browser.executeScript("return localStorage.getItem('hexaflow.user')");
    }

    private WebElement fieldLabelled(String text) {
        Object id = browser.executeScript("const label = Array.from(document.querySelectorAll('label'))"
                + ".find(l => l.firstChild.textContent === arguments[0]); return label ? label.htmlFor : null;", text);
        assertThat(id).as("the field labelled " + text).isNotNull();
        return browser.findElement(By.id((String) id));
    }

    private void waitForStatus(String start) {
        new WebDriverWait(browser, WAIT).until(d -> d.findElement(By.id("run-status")).getText().startsWith(start));
    }
}
