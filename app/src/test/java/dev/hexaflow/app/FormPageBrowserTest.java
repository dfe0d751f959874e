package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.web.HeadlessChromium;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A paused run's form page in a real headless Chromium against a real server: the content as text with its field
 * in place and its default, a select of the form's options, one button per action; filled and answered, it says
 * the answer is recorded and the run succeeds; opened again, it says the form was answered. Skipped where Chromium
 * is not installed.
 */
class FormPageBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dataDir;

    @TempDir
    Path profile;

    @Test
    void aPersonFillsTheFormAndAnswersItAndTheRunSucceeds() throws Exception {
        Path[] chromium = HeadlessChromium.installed().orElse(null);
        Assumptions.assumeTrue(chromium != null, "Chromium and chromedriver are not installed");
        try (TestServer server = TestServer.start(dataDir)) {
            ServiceApi api = server.api(server.importApp("review.yml").get("api_key").asText());
            JsonNode paused = FormPageHttpTest.pause(api, "the plan");
            String token = paused.get("data").get("reasons").get(0).get("form_token").asText();
            ChromeDriver browser = HeadlessChromium.start(chromium, profile, 1024, 800);
            try {
                browser.get(server.hexaflow.baseUrl() + "/form/" + token);
                WebDriverWait wait = new WebDriverWait(browser, WAIT);
                WebElement feedback = wait.until(ExpectedConditions.visibilityOfElementLocated(
                        By.id("field-feedback")));
                assertThat(browser.findElement(By.id("form-content")).getText()).startsWith("Please review: the plan");
                assertThat(feedback.getAttribute("value")).isEqualTo("looks fine");
                assertThat(browser.findElements(By.cssSelector("#form-actions button")))
                        .extracting(WebElement::getText).containsExactly("Approve", "Reject");
                HeadlessChromium.screenshot(browser, "form-1-open");

                feedback.clear();
                feedback.sendKeys("ship it");
                new Select(browser.findElement(By.id("field-priority"))).selectByValue("high");
                browser.findElement(By.cssSelector("button[data-action=approve]")).click();

                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("form-state"), "recorded"));
                HeadlessChromium.screenshot(browser, "form-2-recorded");
                JsonNode run = FormPageHttpTest.waitForEnd(api, paused.get("workflow_run_id").asText());
                assertThat(run.get("status").asText()).isEqualTo("succeeded");
                assertThat(run.get("outputs").get("feedback").asText()).isEqualTo("ship it");
                assertThat(run.get("outputs").get("priority").asText()).isEqualTo("high");

                browser.navigate().refresh();
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("form-state"),
                        "already been answered"));
            } finally {
                browser.quit();
            }
        }
    }
}
