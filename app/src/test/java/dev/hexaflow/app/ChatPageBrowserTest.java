package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.web.HeadlessChromium;
import dev.hexaflow.engine.EngineConfiguration;
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
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page of a chatflow in a real headless Chromium (Debian's, with its chromedriver), against a real server and
 * the chat API: the opening statement and its questions, answers streamed and shown as markdown with nothing in
 * them run, stop, the browser's conversations (reopened, paged back, renamed, deleted), like and dislike,
 * questions suggested after an answer, a file sent with a message, the start form of a new conversation, a failed
 * answer in words, and a phone-sized window. Screenshots of each state are kept under
 * {@code target/screenshots/}. Skipped where Chromium is not installed.
 */
class ChatPageBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /**
     * What the fake model says to the server's own questions: a title for the conversation (the JSON object Dify
     * asks for) and the questions to suggest (the first JSON list), read each from the same text.
     */
    private static final String TITLE_AND_SUGGESTIONS =
            "{\"Your Output\": \"Tea talk\"} [\"What about oolong?\", \"And rooibos?\"]";

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
        model.answer(Script.text(TITLE_AND_SUGGESTIONS, 5, 5));
        browser = HeadlessChromium.start(chromium, profile, 1280, 900);
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aSuggestedQuestionStartsAConversationWhoseAnswerIsMarkdownWithQuestionsSuggestedAfterIt() {
        JsonNode app = server.importApp("tea-chat.yml");
        open(app.get("site_code").asText());
        WebElement opening = byId("opening");
        assertThat(opening.getText()).isEqualTo("Hello! Ask me anything about tea.");
        assertThat(opening.findElement(By.tagName("strong")).getText()).isEqualTo("anything");
        assertThat(browser.findElements(By.cssSelector("#starters button"))).extracting(WebElement::getText)
                .containsExactly("What is green tea?", "How hot should the water be?");
        assertThat(byId("app-icon").getText()).isEqualTo("\uD83C\uDF75");
        HeadlessChromium.screenshot(browser, "chat-1-welcome");

        browser.findElement(By.cssSelector("#starters button")).click();
        WebElement answer = answers(1).get(0);

        assertThat(browser.findElements(By.cssSelector(".message.user .message-text")))
                .extracting(WebElement::getText).containsExactly("What is green tea?");
        WebElement body = answer.findElement(By.className("message-body"));
        assertThat(body.getText()).startsWith("You said: What is green tea?")
                .contains("<script>window.hexaflowPwned = 1</script>");
        assertThat(body.findElements(By.cssSelector("li"))).extracting(WebElement::getText)
                .containsExactly("first", "second");
        assertThat(body.findElement(By.cssSelector("li strong")).getText()).isEqualTo("second");
        assertThat(body.findElements(By.cssSelector("script, img, iframe, [onerror]"))).isEmpty();
        assertThat(browser.executeScript("return window.hexaflowPwned === undefined")).isEqualTo(true);
        assertThat(byId("welcome").isDisplayed()).isFalse();
        List<WebElement> suggested = wait(WAIT).until(ExpectedConditions.visibilityOfAllElementsLocatedBy(
                By.cssSelector("#suggested button")));
        assertThat(suggested).extracting(WebElement::getText).containsExactly("What about oolong?", "And rooibos?");
        WebElement listed = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#conversations .conversation-open")));
        assertThat(listed.getAttribute("aria-current")).isEqualTo("true");

        suggested.get(0).click();
        List<WebElement> both = answers(2);

        assertThat(both.get(1).findElement(By.className("message-body")).getText())
                .startsWith("You said: What about oolong?");
        assertThat(browser.findElements(By.cssSelector("#conversations .conversation"))).as("the same conversation")
                .hasSize(1);
        ServiceApi key = server.api(app.get("api_key").asText());
        JsonNode conversations = TestServer.json(key.get("/v1/conversations?user=" + user()));
        assertThat(conversations.get("data")).hasSize(1);
        JsonNode messages = TestServer.json(key.get("/v1/messages?user=" + user() + "&conversation_id="
                + conversations.at("/data/0/id").asText()));
        assertThat(messages.get("data")).extracting(m -> m.get("query").asText())
                .containsExactly("What is green tea?", "What about oolong?");
        @SuppressWarnings("unchecked")
        List<String> fetched = (List<String>) browser.executeScript(
                "return performance.getEntriesByType('resource').map(e => e.name)");
        assertThat(fetched).as("everything the page fetched").isNotEmpty()
                .allMatch(url -> url.startsWith(server.hexaflow.baseUrl() + "/"));
        HeadlessChromium.screenshot(browser, "chat-2-answered");
    }

    @Test
    void enterSendsShiftEnterBreaksTheLineAndStopEndsASlowAnswerFromTheKeyboard() {
        List<String> words = List.of("Streaming", "one", "word", "at", "a", "time", "until", "someone", "presses",
                "stop", "which", "they", "will", "long", "before", "this", "sentence", "reaches", "its", "end");
        model.answer(Script.text(String.join(" ", words), 5, 20).pausing(400));
        open(server.importApp("chatflow-llm.yml").get("site_code").asText());
        WebElement box = byId("message-input");

        box.sendKeys("First line", Keys.chord(Keys.SHIFT, Keys.ENTER), "second line");
        assertThat(box.getAttribute("value")).isEqualTo("First line\nsecond line");
        assertThat(browser.findElements(By.cssSelector(".message"))).isEmpty();
        box.sendKeys(Keys.ENTER);
        wait(WAIT).until(d -> d.findElement(By.cssSelector(".message.assistant .message-body")).getText()
                .contains("Streaming one word"));

        assertThat(browser.findElement(By.cssSelector(".message.user .message-text")).getText())
                .isEqualTo("First line\nsecond line");
        assertThat(box.getAttribute("value")).isEmpty();
        assertThat(browser.findElement(By.cssSelector(".message.assistant")).getText()).doesNotContain("its end");
        assertThat(byId("send-button").isEnabled()).isFalse();
        HeadlessChromium.screenshot(browser, "chat-3-streaming");
        focused().sendKeys(Keys.TAB);
        assertThat(focused().getAttribute("id")).as("Tab from the box reaches Stop").isEqualTo("stop-button");
        focused().sendKeys(Keys.ENTER);
        WebElement note = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".message.assistant .message-note")));

        assertThat(note.getText()).isEqualTo("Stopped.");
        assertThat(browser.findElement(By.cssSelector(".message.assistant")).getText()).doesNotContain("its end");
        assertThat(byId("stop-button").isDisplayed()).isFalse();
        assertThat(byId("send-button").isEnabled()).isTrue();
        assertThat(focused().getAttribute("id")).as("focus goes back to the box").isEqualTo("message-input");
        HeadlessChromium.screenshot(browser, "chat-4-stopped");
    }

    /** A chatflow that asks a person first: its form shows in the answer, is answered there, and the answer goes on. */
    @Test
    void aFormTheAnswerWaitsOnIsShownAndAnsweredInTheChat() {
        open(server.importApp("ask.yml").get("site_code").asText());
        byId("message-input").sendKeys("the menu", Keys.ENTER);
        WebElement form = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".message.assistant .inline-form")));
        assertThat(browser.findElement(By.cssSelector(".message.assistant .message-body")).getText())
                .isEqualTo("Checking the menu.");
        assertThat(form.getText()).contains("May I answer the menu?", "Note: [note]");
        WebElement note = form.findElement(By.name("note"));
        assertThat(note.getAttribute("value")).isEqualTo("fine");
        note.clear();
        note.sendKeys("soup is fine");
        HeadlessChromium.screenshot(browser, "chat-7-form");
        form.findElement(By.xpath(".//button[text()='Approve']")).click();

        // The conversation is drawn again once the answer has ended, so an element read may be replaced under it.
        wait(WAIT).ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(d -> d.findElement(
                By.cssSelector(".message.assistant .message-body")).getText().contains("Approved: soup is fine!"));
        assertThat(browser.findElements(By.cssSelector(".inline-form"))).as("the answered form is gone").isEmpty();
    }

    @Test
    void aFailedAnswerIsToldInWords() {
        model.answer(Script.failure(500, "the model is down"));
        open(server.importApp("chatflow-llm.yml").get("site_code").asText());

        byId("message-input").sendKeys("Hello?", Keys.ENTER);
        WebElement error = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".message.assistant .message-error")));

        assertThat(error.getText()).isEqualTo("The model could not answer: [openai] Error: 500 the model is down.");
        assertThat(byId("chat-status").getText()).isEqualTo("The answer failed.");
        assertThat(byId("send-button").isEnabled()).isTrue();
        HeadlessChromium.screenshot(browser, "chat-5-failed");
    }

    @Test
    void pastConversationsReopenWithTheirFeedbackAndAreRenamedAndDeleted() {
        JsonNode app = server.importApp("tea-chat.yml");
        String code = app.get("site_code").asText();
        ServiceApi key = server.api(app.get("api_key").asText());
        open(code);
        byId("message-input").sendKeys("Green tea please", Keys.ENTER);
        WebElement first = answers(1).get(0);
        buttonIn(first, "Like").click();
        wait(WAIT).until(d -> "true".equals(buttonIn(first, "Like").getAttribute("aria-pressed")));
        String olderId = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(
                "#conversations .conversation-open[aria-current='true']"))).findElement(By.xpath(".."))
                .getAttribute("data-id");
        byId("new-conversation").click();
        assertThat(browser.findElements(By.cssSelector(".message"))).isEmpty();
        assertThat(byId("welcome").isDisplayed()).isTrue();
        assertThat(focused().getAttribute("id")).isEqualTo("message-input");
        focused().sendKeys("Black tea please", Keys.ENTER);
        answers(1);
        wait(WAIT).until(d -> d.findElements(By.cssSelector("#conversations .conversation")).size() == 2);

        browser.navigate().refresh();
        open(code);
        wait(WAIT).until(d -> d.findElements(By.cssSelector("#conversations .conversation")).size() == 2);
        // Two conversations a moment apart may share their updated_at second: the older is found by its id.
        WebElement older = conversationRow(olderId);
        older.findElement(By.className("conversation-open")).click();
        WebElement reopened = answers(1).get(0);

        assertThat(browser.findElement(By.cssSelector(".message.user .message-text")).getText())
                .isEqualTo("Green tea please");
        assertThat(reopened.findElement(By.className("message-body")).getText())
                .startsWith("You said: Green tea please");
        assertThat(buttonIn(reopened, "Like").getAttribute("aria-pressed")).isEqualTo("true");
        assertThat(buttonIn(reopened, "Dislike").getAttribute("aria-pressed")).isEqualTo("false");
        assertThat(older.findElement(By.className("conversation-open")).getAttribute("aria-current"))
                .isEqualTo("true");

        buttonIn(reopened, "Dislike").click();
        wait(WAIT).until(d -> "true".equals(buttonIn(reopened, "Dislike").getAttribute("aria-pressed")));
        assertThat(buttonIn(reopened, "Like").getAttribute("aria-pressed")).isEqualTo("false");
        JsonNode history = TestServer.json(key.get("/v1/messages?user=" + user() + "&conversation_id=" + olderId));
        assertThat(history.at("/data/0/feedback/rating").asText()).isEqualTo("dislike");

        buttonIn(older, "Rename").click();
        WebElement name = older.findElement(By.cssSelector(".rename-form input"));
        assertThat(focused().equals(name)).isTrue();
        name.clear();
        name.sendKeys("Morning tea", Keys.ENTER);
        WebElement renamed = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(
                "#conversations .conversation[data-id='" + olderId + "'] .conversation-open")));
        wait(WAIT).until(d -> renamed.getText().equals("Morning tea"));
        assertThat(TestServer.json(key.get("/v1/conversations?user=" + user())).get("data"))
                .anySatisfy(c -> assertThat(c.get("name").asText()).isEqualTo("Morning tea"));
        HeadlessChromium.screenshot(browser, "chat-6-renamed");

        WebElement delete = buttonIn(conversationRow(olderId), "Delete");
        delete.click();
        assertThat(delete.getText()).as("a first press only asks").isEqualTo("Delete for good?");
        assertThat(browser.findElements(By.cssSelector("#conversations .conversation"))).hasSize(2);
        delete.click();
        wait(WAIT).until(d -> d.findElements(By.cssSelector("#conversations .conversation")).size() == 1);

        assertThat(browser.findElements(By.cssSelector(".message"))).as("the open conversation went with it")
                .isEmpty();
        assertThat(byId("welcome").isDisplayed()).isTrue();
        assertThat(TestServer.json(key.get("/v1/conversations?user=" + user())).get("data")).hasSize(1);
        HeadlessChromium.screenshot(browser, "chat-7-deleted");
    }

    @Test
    void aLongConversationShowsItsLastHundredTurnsAndTheEarlierOnesOnRequest() {
        JsonNode app = server.importApp("tea-chat.yml");
        open(app.get("site_code").asText());
        ServiceApi key = server.api(app.get("api_key").asText());
        String conversation = "";
        for (int turn = 0; turn < 101; turn++) {
            JsonNode answer = TestServer.json(key.postJson("/v1/chat-messages", Map.of("inputs", Map.of(),
                    "query", "turn " + turn, "response_mode", "blocking", "user", user(),
                    "conversation_id", conversation)));
            conversation = answer.get("conversation_id").asText();
        }

        browser.navigate().refresh();
        open(app.get("site_code").asText());
        wait(WAIT).until(ExpectedConditions.elementToBeClickable(By.cssSelector("#conversations .conversation-open")))
                .click();
        wait(WAIT).until(d -> d.findElements(By.cssSelector(".message.user")).size() == 100);
        assertThat(browser.findElement(By.cssSelector(".message.user .message-text")).getText()).isEqualTo("turn 1");
        WebElement earlier = byId("earlier-button");
        assertThat(earlier.isDisplayed()).isTrue();

        earlier.click();
        wait(WAIT).until(d -> d.findElements(By.cssSelector(".message.user")).size() == 101);

        assertThat(browser.findElement(By.cssSelector(".message.user .message-text")).getText()).isEqualTo("turn 0");
        assertThat(browser.findElements(By.cssSelector(".message.user .message-text")).get(100).getText())
                .isEqualTo("turn 100");
        assertThat(earlier.isDisplayed()).as("nothing earlier").isFalse();
    }

    @Test
    void aFileAttachedToAMessageIsUploadedAndSentWithIt() throws Exception {
        JsonNode app = server.importApp("tea-chat.yml");
        open(app.get("site_code").asText());
        Path notes = Files.writeString(profile.resolve("minutes.txt"), "Minutes of the meeting: bring snacks.");
        Path photo = Files.write(profile.resolve("photo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        WebElement input = byId("attach-input");
        assertThat(input.getAttribute("accept")).contains(".txt").contains(".pdf").doesNotContain(".png");

        input.sendKeys(photo.toString());
        WebElement refused = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#attachments .file.failed")));
        assertThat(refused.getText()).contains("This chat takes documents; photo.png is not one.");
        refused.findElement(By.tagName("button")).click();
        input.sendKeys(notes.toString());
        WebElement uploaded = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#attachments .file.uploaded")));
        assertThat(uploaded.getText()).contains("minutes.txt").contains("Uploaded");
        HeadlessChromium.screenshot(browser, "chat-8-attached");

        byId("message-input").sendKeys("Read this", Keys.ENTER);
        answers(1);

        assertThat(browser.findElements(By.cssSelector(".message.user .message-files li")))
                .extracting(WebElement::getText).containsExactly("minutes.txt");
        assertThat(browser.findElements(By.cssSelector("#attachments .file"))).isEmpty();
        assertThat(browser.findElement(By.cssSelector(".message.assistant .message-body")).getText())
                .as("the chatflow's sys.files, as the answer shows them").matches("(?s).*Files: \\[?minutes\\.txt.*");
    }

    @Test
    void theStartFormIsAskedOnceWhenAConversationStartsAndFillsTheOpeningStatement() {
        JsonNode app = server.importApp("chatflow.yml");
        open(app.get("site_code").asText());
        assertThat(byId("inputs-panel").isDisplayed()).isTrue();
        assertThat(byId("opening").getText()).isEqualTo("Hello {{name}}, ask me anything.");

        byId("field-0").sendKeys("Ada");
        assertThat(byId("opening").getText()).isEqualTo("Hello Ada, ask me anything.");
        byId("message-input").sendKeys("Hi", Keys.ENTER);
        answers(1);

        assertThat(byId("inputs-panel").isDisplayed()).as("a conversation keeps its inputs").isFalse();
        JsonNode conversations = TestServer.json(server.api(app.get("api_key").asText())
                .get("/v1/conversations?user=" + user()));
        assertThat(conversations.at("/data/0/inputs/name").asText()).isEqualTo("Ada");
        HeadlessChromium.screenshot(browser, "chat-11-inputs");
    }

    @Test
    void atPhoneWidthTheConversationsAreAMenuAndNothingScrollsSideways() {
        browser.manage().window().setSize(new Dimension(390, 844));
        open(server.importApp("tea-chat.yml").get("site_code").asText());
        WebElement toggle = byId("conversations-toggle");
        assertThat(toggle.isDisplayed()).isTrue();
        assertThat(byId("conversations-panel").isDisplayed()).isFalse();

        byId("message-input").sendKeys("A long question about a great many kinds of tea from everywhere", Keys.ENTER);
        answers(1);
        assertThat(browser.executeScript(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"))
                .isEqualTo(true);
        HeadlessChromium.screenshot(browser, "chat-9-phone");
        toggle.click();

        assertThat(toggle.getAttribute("aria-expanded")).isEqualTo("true");
        assertThat(byId("conversations-panel").isDisplayed()).isTrue();
        assertThat(focused().getAttribute("id")).isEqualTo("new-conversation");
        WebElement listed = wait(WAIT).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#conversations .conversation-open")));
        HeadlessChromium.screenshot(browser, "chat-10-phone-menu");
        focused().sendKeys(Keys.ENTER);
        assertThat(byId("conversations-panel").isDisplayed()).as("choosing closes the menu").isFalse();
        assertThat(browser.findElements(By.cssSelector(".message"))).isEmpty();

        toggle.click();
        listed.click();
        answers(1);
        assertThat(byId("conversations-panel").isDisplayed()).isFalse();
        assertThat(toggle.getAttribute("aria-expanded")).isEqualTo("false");
    }

    private void open(String siteCode) {
        browser.get(server.hexaflow.baseUrl() + "/apps/" + siteCode);
        wait(WAIT).until(d -> d.findElement(By.id("send-button")).isEnabled()
                || d.findElements(By.cssSelector("#notice:not([hidden])")).size() > 0);
        assertThat(byId("notice").isDisplayed()).as("the page's notice").isFalse();
    }

    /** The answers on the page once there are {@code count} and the last one has ended (its feedback shows). */
    private List<WebElement> answers(int count) {
        wait(WAIT).until(d -> {
            List<WebElement> shown = d.findElements(By.cssSelector(".message.assistant"));
            return shown.size() == count && !shown.get(count - 1).findElements(By.cssSelector(".feedback"))
                    .isEmpty();
        });
        return browser.findElements(By.cssSelector(".message.assistant"));
    }

    private WebElement conversationRow(String id) {
        return browser.findElement(By.cssSelector("#conversations .conversation[data-id='" + id + "']"));
    }

    private static WebElement buttonIn(WebElement parent, String words) {
        return parent.findElements(By.tagName("button")).stream().filter(b -> b.getText().equals(words)).findFirst()
                .orElseThrow(() -> new AssertionError("no button " + words));
    }

    private String user() {
        return (String) browser.executeScript("return localStorage.getItem('hexaflow.user')");
    }

    private WebElement byId(String id) {
        return browser.findElement(By.id(id));
    }

    private WebElement focused() {
        return browser.switchTo().activeElement();
    }

    private WebDriverWait wait(Duration timeout) {
        return new WebDriverWait(browser, timeout);
    }
}
