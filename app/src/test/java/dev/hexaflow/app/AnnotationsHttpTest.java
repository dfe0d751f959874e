package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dify's annotation Service API on a real server, with a chatflow whose model is a fake OpenAI-compatible server on
 * loopback: annotations added, listed, searched, changed and removed in Dify's shapes; the reply switched on and
 * off with its job's status; a turn whose query matches an annotation answered from it (streamed and blocking)
 * with no request to the model, its hit counted; a turn that matches none answered by the model; and every
 * refusal in Dify's error body.
 */
class AnnotationsHttpTest {

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static ServiceApi workflow;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        workflow = server.api(server.importApp("echo.yml").get("api_key").asText());
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    /** A chatflow of its own, so that each test sees only its annotations. */
    private static ServiceApi newChat() {
        return server.api(server.importApp("chatflow.yml").get("api_key").asText());
    }

    private static JsonNode create(ServiceApi chat, String question, String answer) {
        HttpResponse<String> created = chat.postJson("/v1/apps/annotations", Map.of("question", question,
                "answer", answer));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return json(created);
    }

    private static HttpResponse<String> send(ServiceApi chat, String method, String path, String body) {
        return server.send(method, path, body == null ? null : "application/json", body, chat.key());
    }

    private static void enable(ServiceApi chat, double threshold) {
        HttpResponse<String> enabled = chat.postJson("/v1/apps/annotation-reply/enable", Map.of(
                "score_threshold", threshold, "embedding_provider_name", "openai", "embedding_model_name",
                "text-embedding-3-small"));
        assertThat(enabled.statusCode()).as(enabled.body()).isEqualTo(200);
    }

    @Test
    void annotationsAreAddedListedSearchedChangedAndRemovedInDifysShapes() {
        ServiceApi chat = newChat();
        JsonNode hours = create(chat, "What are your opening hours?", "9 to 5");
        JsonNode office = create(chat, "Where is the office?", "In Paris");

        assertThat(fields(hours)).containsExactly("id", "question", "answer", "hit_count", "created_at");
        assertThat(UUID.fromString(hours.get("id").asText()).toString()).isEqualTo(hours.get("id").asText());
        assertThat(hours.get("question").asText()).isEqualTo("What are your opening hours?");
        assertThat(hours.get("answer").asText()).isEqualTo("9 to 5");
        assertThat(hours.get("hit_count").asInt()).isZero();
        assertThat(hours.get("created_at").isIntegralNumber()).isTrue();
        JsonNode page = json(chat.get("/v1/apps/annotations?page=1&limit=1"));
        assertThat(fields(page)).containsExactly("data", "has_more", "limit", "total", "page");
        assertThat(page.get("data")).hasSize(1);
        assertThat(page.get("has_more").asBoolean()).isTrue();
        assertThat(page.get("limit").asInt()).isEqualTo(1);
        assertThat(page.get("total").asInt()).isEqualTo(2);
        assertThat(page.get("page").asInt()).isEqualTo(1);
        JsonNode found = json(chat.get("/v1/apps/annotations?keyword=PARIS"));
        assertThat(found.get("data")).extracting(a -> a.get("id").asText()).containsExactly(office.get("id")
                .asText());
        assertThat(found.get("has_more").asBoolean()).isFalse();
        assertThat(found.get("limit").asInt()).isEqualTo(20);

        HttpResponse<String> updated = send(chat, "PUT", "/v1/apps/annotations/" + hours.get("id").asText(),
                "{\"question\": \"When are you open?\", \"answer\": \"8 to 6\"}");
        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(json(updated).get("answer").asText()).isEqualTo("8 to 6");
        assertThat(json(updated).get("id").asText()).isEqualTo(hours.get("id").asText());

        HttpResponse<String> deleted = send(chat, "DELETE", "/v1/apps/annotations/" + office.get("id").asText(),
                null);
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(deleted.body()).isEmpty();
        JsonNode left = json(chat.get("/v1/apps/annotations"));
        assertThat(left.get("data")).extracting(a -> a.get("question").asText()).containsExactly("When are you open?");
        assertThat(left.get("total").asInt()).isEqualTo(1);
    }

    @Test
    void theReplyIsSwitchedOnAndOffAndItsJobsStatusIsAnswered() {
        ServiceApi chat = newChat();
        Map<String, Object> body = Map.of("score_threshold", 0.9, "embedding_provider_name", "openai",
                "embedding_model_name", "text-embedding-3-small");

        HttpResponse<String> enabled = chat.postJson("/v1/apps/annotation-reply/enable", body);
        JsonNode job = json(enabled);
        HttpResponse<String> status = chat.get("/v1/apps/annotation-reply/enable/status/"
                + job.get("job_id").asText());
        HttpResponse<String> disabled = chat.postJson("/v1/apps/annotation-reply/disable", body);

        assertThat(enabled.statusCode()).isEqualTo(200);
        assertThat(fields(job)).containsExactly("job_id", "job_status");
        assertThat(job.get("job_status").asText()).isEqualTo("completed");
        assertThat(status.statusCode()).isEqualTo(200);
        assertThat(fields(json(status))).containsExactly("job_id", "job_status", "error_msg");
        assertThat(json(status).get("job_id").asText()).isEqualTo(job.get("job_id").asText());
        assertThat(json(status).get("job_status").asText()).isEqualTo("completed");
        assertThat(json(status).get("error_msg").asText()).isEmpty();
        assertThat(disabled.statusCode()).isEqualTo(200);
        assertThat(json(chat.get("/v1/apps/annotation-reply/disable/status/"
                + json(disabled).get("job_id").asText())).get("job_status").asText()).isEqualTo("completed");
        assertRefused(chat.get("/v1/apps/annotation-reply/disable/status/" + job.get("job_id").asText()), 400,
                "invalid_param", "The job does not exist.");
        assertRefused(chat.get("/v1/apps/annotation-reply/enable/status/job-1"), 404, "not_found",
                "The requested URL was not found on the server.");
        assertRefused(chat.postJson("/v1/apps/annotation-reply/toggle", body), 400, "invalid_param",
                "Unsupported annotation reply action");
        assertRefused(chat.postJson("/v1/apps/annotation-reply/enable", Map.of("score_threshold", 0.9)), 400,
                "invalid_param", "embedding_provider_name is required");
        assertRefused(chat.postJson("/v1/apps/annotation-reply/enable", Map.of("score_threshold", "high",
                "embedding_provider_name", "openai", "embedding_model_name", "m")), 400, "invalid_param",
                "score_threshold must be a number");
        assertRefused(chat.postJson("/v1/apps/annotation-reply/enable", Map.of("score_threshold", 1.5,
                "embedding_provider_name", "openai", "embedding_model_name", "m")), 400, "invalid_param",
                "score_threshold must be between 0 and 1");
    }

    @Test
    void aMatchingTurnIsAnsweredFromTheAnnotationWithNoModelRequest() throws Exception {
        ServiceApi chat = newChat();
        JsonNode hours = create(chat, "What are your opening hours?", "9 to 5, Monday to Friday.");
        enable(chat, 0.9);
        int asked = model.requests().size();

        HttpResponse<InputStream> streamed = chat.postStreaming("/v1/chat-messages", ChatApiHttpTest.message(
                "what are your opening hours", null, "ada", "streaming"));
        List<JsonNode> events = ChatApiHttpTest.frames(new String(streamed.body().readAllBytes(),
                StandardCharsets.UTF_8));
        JsonNode blocking = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message(
                "What are your opening hours?", null, "bob", "blocking")));

        assertThat(model.requests()).as("the model is asked nothing").hasSize(asked);
        assertThat(events).extracting(e -> e.get("event").asText()).containsExactly("message", "message_end");
        assertThat(events.get(0).get("answer").asText()).isEqualTo("9 to 5, Monday to Friday.");
        JsonNode end = events.get(1);
        assertThat(end.get("metadata").get("annotation_reply").get("id").asText())
                .isEqualTo(hours.get("id").asText());
        assertThat(end.get("metadata").get("annotation_reply").get("account").get("name").asText())
                .isEqualTo("Dify user");
        assertThat(end.get("message_id").asText()).isEqualTo(events.get(0).get("message_id").asText());
        assertThat(blocking.get("answer").asText()).isEqualTo("9 to 5, Monday to Friday.");
        assertThat(blocking.get("metadata").get("annotation_reply").get("id").asText())
                .isEqualTo(hours.get("id").asText());
        JsonNode kept = json(chat.get("/v1/messages?user=ada&conversation_id="
                + end.get("conversation_id").asText())).get("data").get(0);
        assertThat(kept.get("answer").asText()).isEqualTo("9 to 5, Monday to Friday.");
        assertThat(kept.get("status").asText()).isEqualTo("normal");
        assertThat(json(chat.get("/v1/apps/annotations")).get("data").get(0).get("hit_count").asInt())
                .isEqualTo(2);
    }

    @Test
    void withAnEmbeddingModelTheQuestionsAreEmbeddedOnceAndTheChatModelIsAskedNothing(@TempDir Path own)
            throws Exception {
        try (FakeModelServer models = new FakeModelServer(); TestServer embedding = TestServer.start(
                TestServer.config(own).withEngine(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS",
                        "*=local-model", "HEXAFLOW_EMBEDDING_MODEL", "embed-small")).withLlm(models.baseUrl(),
                        "sk-t")))) {
            ServiceApi chat = embedding.api(embedding.importApp("chatflow.yml").get("api_key").asText());
            chat.postJson("/v1/apps/annotations", Map.of("question", "What are your opening hours?", "answer",
                    "9 to 5"));
            chat.postJson("/v1/apps/annotations", Map.of("question", "Where is the office?", "answer",
                    "In Paris"));
            chat.postJson("/v1/apps/annotation-reply/enable", Map.of("score_threshold", 0.9,
                    "embedding_provider_name", "openai", "embedding_model_name", "embed-small"));

            JsonNode first = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message(
                    "what are your opening hours", null, "ada", "blocking")));
            JsonNode second = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message(
                    "where is the office", null, "ada", "blocking")));

            assertThat(first.get("answer").asText()).isEqualTo("9 to 5");
            assertThat(second.get("answer").asText()).isEqualTo("In Paris");
            assertThat(models.requests()).as("the chat model is asked nothing").isEmpty();
            // The questions once, newest first, then each turn's query alone.
            assertThat(models.embeddingRequests()).extracting(request -> request.get("input").toString())
                    .containsExactly("[\"Where is the office?\",\"What are your opening hours?\"]",
                            "[\"what are your opening hours\"]", "[\"where is the office\"]");
        }
    }

    @Test
    void aTurnNoAnnotationMatchesAndATurnWhileTheReplyIsOffReachTheModel() {
        ServiceApi chat = newChat();
        create(chat, "What are your opening hours?", "9 to 5");
        enable(chat, 0.9);
        model.answer(Script.text("Why did the chicken cross the road?", 3, 7));
        int asked = model.requests().size();

        JsonNode joke = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message("Tell me a joke", null,
                "ada", "blocking")));
        chat.postJson("/v1/apps/annotation-reply/disable", Map.of("score_threshold", 0.9,
                "embedding_provider_name", "openai", "embedding_model_name", "text-embedding-3-small"));
        model.answer(Script.text("From the model", 3, 7));
        JsonNode off = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message(
                "What are your opening hours?", null, "ada", "blocking")));

        assertThat(joke.get("answer").asText()).isEqualTo("Why did the chicken cross the road?");
        assertThat(joke.get("metadata").has("annotation_reply")).isFalse();
        assertThat(off.get("answer").asText()).isEqualTo("From the model");
        assertThat(model.requests()).hasSize(asked + 2);
        assertThat(json(chat.get("/v1/apps/annotations")).get("data").get(0).get("hit_count").asInt()).isZero();
    }

    @Test
    void anUnknownOrAnotherAppsAnnotationIsNotFoundAndLeftAlone() {
        ServiceApi chat = newChat();
        ServiceApi other = newChat();
        String others = create(other, "Hours?", "9 to 5").get("id").asText();
        String body = "{\"question\": \"mine\", \"answer\": \"mine\"}";

        assertRefused(send(chat, "PUT", "/v1/apps/annotations/" + others, body), 404, "not_found",
                "Annotation not found");
        assertRefused(send(chat, "DELETE", "/v1/apps/annotations/" + others, null), 404, "not_found",
                "Annotation not found");
        assertRefused(send(chat, "DELETE", "/v1/apps/annotations/" + UUID.randomUUID(), null), 404, "not_found",
                "Annotation not found");
        assertRefused(send(chat, "PUT", "/v1/apps/annotations/not-a-uuid", body), 404, "not_found",
                "The requested URL was not found on the server.");
        assertThat(json(chat.get("/v1/apps/annotations")).get("total").asInt()).isZero();
        assertThat(json(other.get("/v1/apps/annotations")).get("data").get(0).get("answer").asText())
                .isEqualTo("9 to 5");
    }

    @Test
    void missingMistypedOrTooLongFieldsAreRefused() {
        ServiceApi chat = newChat();
        Map<String, Object> noAnswer = new HashMap<>(Map.of("question", "q"));

        assertRefused(chat.postJson("/v1/apps/annotations", noAnswer), 400, "invalid_param", "answer is required");
        assertRefused(chat.postJson("/v1/apps/annotations", Map.of("question", 42, "answer", "a")), 400,
                "invalid_param", "question must be a string");
        assertRefused(chat.postJson("/v1/apps/annotations", Map.of("question", "q".repeat(2001), "answer", "a")),
                400, "invalid_param", "question is too long. Maximum 2000 characters allowed.");
        assertRefused(chat.postJson("/v1/apps/annotations", Map.of("question", "q", "answer", "a".repeat(10_001))),
                400, "invalid_param", "answer is too long. Maximum 10000 characters allowed.");
        assertRefused(chat.postRaw("/v1/apps/annotations", "application/json", "[1]".getBytes(
                StandardCharsets.UTF_8)), 400, "invalid_param", null);
        assertRefused(chat.get("/v1/apps/annotations?page=first"), 400, "invalid_param", null);
        assertThat(create(chat, "q".repeat(2000), "a".repeat(10_000)).get("answer").asText()).hasSize(10_000);
        assertThat(json(chat.get("/v1/apps/annotations?limit=500")).get("data")).hasSize(1);
    }

    @Test
    void aWorkflowAppOrAPagesTokenIsRefused() {
        String notChat = "Please check if your app mode matches the right API route.";
        assertRefused(workflow.get("/v1/apps/annotations"), 400, "not_chat_app", notChat);
        assertRefused(workflow.postJson("/v1/apps/annotations", Map.of("question", "q", "answer", "a")), 400,
                "not_chat_app", notChat);
        assertRefused(workflow.postJson("/v1/apps/annotation-reply/enable", Map.of("score_threshold", 0.9,
                "embedding_provider_name", "openai", "embedding_model_name", "m")), 400, "not_chat_app", notChat);
        JsonNode chat = server.importApp("chatflow.yml");
        TestServer.PageToken page = server.pageToken(chat.get("site_code").asText(), null);
        HttpResponse<String> refused = server.api(page.token()).get("/v1/apps/annotations");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).get("message").asText()).contains("manage annotations");
    }

    private static void assertRefused(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("status").asInt()).isEqualTo(status);
        if (message != null) {
            assertThat(body.get("message").asText()).isEqualTo(message);
        }
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
