package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A web page's visitor, through the page's own token, cannot hand the store a text longer than the server takes
 * (HEXAFLOW_MAX_TEXT_CHARS, 200,000 by default) nor a body larger than it takes: a chat query, an input without a
 * max_length of its own, an input the form does not even have, a feedback's content, a conversation's name (255,
 * as Dify's column) and an upload's name are each refused with Dify's 400 before anything is kept, and the
 * server goes on keeping every app's runs. Three such queries at once once made H2 fail its commit and every
 * app's writes with it.
 */
class EndUserTextLimitsHttpTest {

    static final int MOST = RequestLimits.DEFAULTS.maxTextChars();

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static ServiceApi chatPage;
    static String chatUser;
    static ServiceApi workflowPage;
    static String workflowUser;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        model.answer(Script.text("an answer", 1, 1));
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        TestServer.PageToken chat = server.pageToken(server.importApp("chatflow.yml").get("site_code").asText(),
                null);
        chatPage = server.api(chat.token());
        chatUser = chat.user();
        TestServer.PageToken workflow = server.pageToken(server.importApp("chat.yml").get("site_code").asText(),
                null);
        workflowPage = server.api(workflow.token());
        workflowUser = workflow.user();
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    private static Map<String, Object> message(String query, Map<String, Object> inputs) {
        Map<String, Object> body = new HashMap<>(ChatApiHttpTest.message(query, null, chatUser, "blocking"));
        body.put("inputs", inputs);
        return body;
    }

    private static void assertRefused(HttpResponse<String> answer, String naming) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
        JsonNode error = json(answer);
        assertThat(error.get("code").asText()).isEqualTo("invalid_param");
        assertThat(error.get("message").asText()).contains(naming).contains("at most");
        assertThat(answer.body().length()).as("the refusal does not echo the text").isLessThan(1000);
    }

    private static long conversations() {
        return json(chatPage.get("/v1/conversations?user=" + chatUser + "&limit=100")).get("data").size();
    }

    @Test
    void aChatQueryLongerThanTheServerTakesIsRefusedAndNothingIsKept() {
        long before = conversations();

        assertRefused(chatPage.postJson("/v1/chat-messages", message("q".repeat(MOST + 1), Map.of())), "query");

        assertThat(conversations()).isEqualTo(before);
        HttpResponse<String> atTheLimit = chatPage.postJson("/v1/chat-messages", message("q".repeat(MOST),
                Map.of()));
        assertThat(atTheLimit.statusCode()).as(atTheLimit.body()).isEqualTo(200);
    }

    @Test
    void anInputWithoutAMaxLengthAndOneTheFormDoesNotHaveAreBoundToo() {
        assertRefused(chatPage.postJson("/v1/chat-messages", message("hi", Map.of("name", "n".repeat(MOST + 1)))),
                "inputs.name");
        assertRefused(chatPage.postJson("/v1/chat-messages", message("hi", Map.of("extra", List.of("e".repeat(
                MOST + 1))))), "inputs.extra[0]");
        assertRefused(workflowPage.postJson("/v1/workflows/run", ServiceApi.run(Map.of("q", "p".repeat(MOST + 1)),
                "blocking", workflowUser)), "inputs.q");
    }

    @Test
    void aFeedbacksContentAndAConversationsNameAreBound() {
        JsonNode sent = json(chatPage.postJson("/v1/chat-messages", message("hello", Map.of())));
        String conversation = sent.get("conversation_id").asText();

        assertRefused(chatPage.postJson("/v1/messages/" + sent.get("message_id").asText() + "/feedbacks",
                Map.of("rating", "like", "content", "f".repeat(MOST + 1), "user", chatUser)), "content");
        assertRefused(chatPage.postJson("/v1/conversations/" + conversation + "/name",
                Map.of("name", "n".repeat(256), "user", chatUser)), "name");
        HttpResponse<String> renamed = chatPage.postJson("/v1/conversations/" + conversation + "/name",
                Map.of("name", "n".repeat(255), "user", chatUser));
        assertThat(renamed.statusCode()).as(renamed.body()).isEqualTo(200);
    }

    @Test
    void anUploadsNameIsBound() {
        HttpResponse<String> answer = chatPage.multipart("/v1/files/upload", List.of(Part.field("user", chatUser),
                Part.file("note." + "x".repeat(300), "text/plain", "hello".getBytes(StandardCharsets.UTF_8))));

        assertRefused(answer, "extension");
    }

    @Test
    void aBodyLargerThanTheServerTakesIsRefusedWith413BeforeItIsRead() {
        Map<String, Object> inputs = new HashMap<>();
        for (int i = 0; i < 40; i++) {
            inputs.put("field" + i, "v".repeat(MOST));
        }

        HttpResponse<String> answer = chatPage.postJson("/v1/chat-messages", message("hi", inputs));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(413);
        assertThat(json(answer).get("code").asText()).isEqualTo("request_entity_too_large");
    }

    @Test
    void threeVisitorsSendingTheLongestQueriesAtOnceLeaveTheStoreKeepingEveryAppsRuns() throws Exception {
        List<Thread> visitors = new java.util.ArrayList<>();
        java.util.concurrent.ConcurrentLinkedQueue<Integer> statuses = new java.util.concurrent
                .ConcurrentLinkedQueue<>();
        for (int i = 0; i < 3; i++) {
            Thread visitor = new Thread(() -> statuses.add(chatPage.postJson("/v1/chat-messages",
                    message("x".repeat(MOST), Map.of())).statusCode()));
            visitors.add(visitor);
            visitor.start();
        }
        for (Thread visitor : visitors) {
            visitor.join();
        }

        assertThat(statuses).containsExactly(200, 200, 200);
        HttpResponse<String> other = workflowPage.postJson("/v1/workflows/run", ServiceApi.run(Map.of("q", "hi"),
                "blocking", workflowUser));
        assertThat(other.statusCode()).as(other.body()).isEqualTo(200);
        assertThat(TestServer.json(server.send("GET", "/health", null, null, null)).get("status").asText()).isEqualTo("ok");
    }
}
