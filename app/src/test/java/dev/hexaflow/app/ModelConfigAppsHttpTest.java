package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dify's apps described by a model_config (chat, agent-chat, completion) imported and run on the real server,
 * their model a fake OpenAI-compatible server on loopback: each on its own routes with Dify's events and answers,
 * each refused on another mode's, its page's parameters, and its DSL exported as it came.
 */
class ModelConfigAppsHttpTest {

    private static final String UNAVAILABLE = "App unavailable, please check your app configurations.";

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static JsonNode chatApp;
    static ServiceApi chat;
    static ServiceApi agent;
    static ServiceApi completion;
    static ServiceApi workflow;
    static ServiceApi chatflow;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        chatApp = server.importApp("easy-chat.yml");
        chat = server.api(chatApp.get("api_key").asText());
        agent = server.api(server.importApp("easy-agent.yml").get("api_key").asText());
        completion = server.api(server.importApp("easy-completion.yml").get("api_key").asText());
        workflow = server.api(server.importApp("echo.yml").get("api_key").asText());
        chatflow = server.api(server.importApp("chatflow.yml").get("api_key").asText());
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    @BeforeEach
    void answerOk() {
        model.requests().clear();
        model.answer(Script.text("Welcome Ada", 7, 3));
    }

    @Test
    void aChatAppSendsItsPrePromptFilledAsTheSystemPromptAndRemembersTheConversation() {
        JsonNode first = json(chat.postJson("/v1/chat-messages", message("hello", Map.of("name", "Ada"), null,
                "blocking")));
        model.answer(Script.text("Your name is Ada", 9, 4));
        JsonNode second = json(chat.postJson("/v1/chat-messages", message("what is my name?", Map.of(),
                first.get("conversation_id").asText(), "blocking")));

        assertThat(fieldNames(first)).containsExactly("event", "task_id", "id", "message_id", "conversation_id",
                "mode", "answer", "metadata", "created_at");
        assertThat(first.get("mode").asText()).isEqualTo("chat");
        assertThat(first.get("answer").asText()).isEqualTo("Welcome Ada");
        assertThat(first.at("/metadata/usage/total_tokens").asLong()).isEqualTo(10);
        assertThat(sent(0)).containsExactly("system: You are a friendly concierge. The visitor is called Ada.",
                "user: hello");
        assertThat(second.get("conversation_id").asText()).isEqualTo(first.get("conversation_id").asText());
        assertThat(second.get("answer").asText()).isEqualTo("Your name is Ada");
        assertThat(sent(1)).containsExactly("system: You are a friendly concierge. The visitor is called Ada.",
                "user: hello", "assistant: Welcome Ada", "user: what is my name?");
        JsonNode messages = json(chat.get("/v1/messages?user=ada&conversation_id="
                + first.get("conversation_id").asText()));
        assertThat(messages.get("data")).extracting(m -> m.get("answer").asText())
                .containsExactly("Welcome Ada", "Your name is Ada");
    }

    @Test
    void aChatAppsMessagesTakeFeedbackAndSuggestQuestionsThroughTheModel() {
        JsonNode sent = json(chat.postJson("/v1/chat-messages", message("hello", Map.of("name", "Cy"), null,
                "blocking")));
        String messageId = sent.get("message_id").asText();
        model.answer(Script.text("[\"Why?\", \"How?\", \"When?\"]", 5, 5));

        JsonNode suggested = json(chat.get("/v1/messages/" + messageId + "/suggested?user=ada"));
        JsonNode feedback = json(chat.postJson("/v1/messages/" + messageId + "/feedbacks", Map.of("rating", "like",
                "user", "ada")));

        assertThat(suggested.get("data")).extracting(JsonNode::asText).containsExactly("Why?", "How?", "When?");
        assertThat(model.requests()).hasSize(2);
        assertThat(feedback.get("result").asText()).isEqualTo("success");
        JsonNode conversations = json(chat.get("/v1/conversations?user=ada&limit=100"));
        assertThat(conversations.get("data")).extracting(c -> c.get("id").asText())
                .contains(sent.get("conversation_id").asText());
    }

    @Test
    void aChatAppStreamsItsMessageEventsAloneAsDifysEasyUiPipelineDoes() throws IOException {
        List<JsonNode> events = frames(chat.postStreaming("/v1/chat-messages", message("hello",
                Map.of("name", "Bo"), null, "streaming")), event -> false);

        assertThat(events).extracting(e -> e.get("event").asText()).containsExactly("message", "message",
                "message_end");
        assertThat(fieldNames(events.get(0))).containsExactly("event", "conversation_id", "message_id",
                "created_at", "task_id", "id", "answer", "from_variable_selector");
        assertThat(events.get(0).get("answer").asText() + events.get(1).get("answer").asText())
                .isEqualTo("Welcome Ada");
        assertThat(events.get(2).at("/metadata/usage/total_tokens").asLong()).isEqualTo(10);
    }

    @Test
    void anAgentChatAppCallsItsBuiltInToolAndAnswersAsAnAgent() throws IOException {
        model.answerInTurn(Script.toolCall("weekday", "{\"year\": 2024, \"month\": 2, \"day\": 29}"),
                Script.text("A Thursday.", 20, 3));
        JsonNode blocking = json(agent.postJson("/v1/chat-messages", message("What day is 2024-02-29?", Map.of(),
                null, "blocking")));

        assertThat(blocking.get("mode").asText()).as(blocking.toString()).isEqualTo("agent-chat");
        assertThat(blocking.get("answer").asText()).isEqualTo("A Thursday.");
        assertThat(sent(0)).containsExactly("system: You answer questions about dates.",
                "user: What day is 2024-02-29?");
        assertThat(model.requests().get(0).get("tools")).extracting(t -> t.at("/function/name").asText())
                .containsExactly("weekday");
        assertThat(sent(1)).anyMatch(line -> line.contains("February 29, 2024 is Thursday."));

        model.answerInTurn(Script.toolCall("weekday", "{\"year\": 2024, \"month\": 2, \"day\": 29}"),
                Script.text("A Thursday.", 20, 3));
        List<JsonNode> events = frames(agent.postStreaming("/v1/chat-messages", message("And now?", Map.of(),
                null, "streaming")), event -> false);
        assertThat(events).extracting(e -> e.get("event").asText()).containsOnly("agent_thought", "agent_message",
                "message_end").endsWith("agent_thought", "message_end");
        List<JsonNode> thoughts = events.stream().filter(e -> e.get("event").asText().equals("agent_thought"))
                .toList();
        assertThat(thoughts).extracting(t -> t.get("position").asInt()).containsExactly(1, 2);
        assertThat(fieldNames(thoughts.get(0))).containsExactly("event", "conversation_id", "message_id",
                "created_at", "task_id", "id", "position", "thought", "observation", "tool", "tool_labels",
                "tool_input", "message_files");
        assertThat(thoughts.get(0).get("tool").asText()).isEqualTo("weekday");
        assertThat(TestServer.json(thoughts.get(0).get("tool_input").asText()).at("/weekday/month").asInt())
                .isEqualTo(2);
        assertThat(TestServer.json(thoughts.get(0).get("observation").asText()).get("weekday").asText())
                .isEqualTo("February 29, 2024 is Thursday.");
        assertThat(thoughts.get(1).get("thought").asText()).isEqualTo("A Thursday.");
        assertThat(events.stream().filter(e -> e.get("event").asText().equals("agent_message"))
                .map(e -> e.get("answer").asText()).reduce("", String::concat)).isEqualTo("A Thursday.");
        assertKeptAsStreamed(events, thoughts);
    }

    /** GET /v1/messages answers the thoughts the stream showed, under their ids, in position order. */
    private static void assertKeptAsStreamed(List<JsonNode> events, List<JsonNode> streamed) {
        JsonNode end = events.get(events.size() - 1);
        JsonNode listed = json(agent.get("/v1/messages?user=ada&conversation_id="
                + end.get("conversation_id").asText()));
        JsonNode kept = listed.get("data").get(listed.get("data").size() - 1).get("agent_thoughts");
        assertThat(kept).as(listed.toString()).hasSize(2);
        assertThat(fieldNames(kept.get(0))).containsExactly("id", "chain_id", "message_id", "position", "thought",
                "tool", "tool_labels", "tool_input", "created_at", "observation", "files");
        for (int i = 0; i < 2; i++) {
            JsonNode thought = kept.get(i);
            assertThat(thought.get("id").asText()).isEqualTo(streamed.get(i).get("id").asText());
            assertThat(thought.get("message_id").asText()).isEqualTo(end.get("message_id").asText());
            assertThat(thought.get("position").asInt()).isEqualTo(i + 1);
            for (String field : List.of("thought", "tool", "tool_input", "observation")) {
                assertThat(thought.get(field).asText()).as(field).isEqualTo(streamed.get(i).get(field).asText());
            }
            assertThat(thought.get("created_at").asLong()).isPositive();
        }
    }

    @Test
    void aCompletionAppAnswersBlockingWithDifysShapeAndItsPromptAsOneUserMessage() {
        HttpResponse<String> response = completion.postJson("/v1/completion-messages", completionRequest(
                "blocking"));
        JsonNode body = json(response);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(fieldNames(body)).containsExactly("event", "task_id", "id", "message_id", "mode", "answer",
                "metadata", "created_at");
        assertThat(body.get("event").asText()).isEqualTo("message");
        assertThat(body.get("mode").asText()).isEqualTo("completion");
        assertThat(body.get("answer").asText()).isEqualTo("Welcome Ada");
        assertThat(body.at("/metadata/usage/prompt_tokens").asLong()).isEqualTo(7);
        assertThat(sent(0)).containsExactly("user: Write a haiku poem about the sea.");
    }

    @Test
    void aCompletionAppStreamsMessageEventsWithoutAConversation() throws IOException {
        List<JsonNode> events = frames(completion.postStreaming("/v1/completion-messages",
                completionRequest("streaming")), event -> false);

        assertThat(events).extracting(e -> e.get("event").asText()).containsExactly("message", "message",
                "message_end");
        assertThat(fieldNames(events.get(0))).containsExactly("event", "message_id", "created_at", "task_id", "id",
                "answer", "from_variable_selector");
        assertThat(fieldNames(events.get(2))).doesNotContain("conversation_id").contains("metadata");
    }

    @Test
    void aStoppedCompletionEndsItsStreamAndKeepsWhatWasWritten() throws IOException {
        model.answer(Script.text("one two three four five six seven eight", 1, 1).pausing(150));
        List<String> stops = new ArrayList<>();
        List<JsonNode> events = frames(completion.postStreaming("/v1/completion-messages",
                completionRequest("streaming")), event -> {
                    if (stops.isEmpty() && event.get("event").asText().equals("message")) {
                        stops.add(json(completion.postJson("/v1/completion-messages/" + event.get("task_id")
                                .asText() + "/stop", Map.of("user", "ada"))).get("result").asText());
                    }
                    return false;
                });

        assertThat(stops).containsExactly("success");
        assertThat(events.get(events.size() - 1).get("event").asText()).isEqualTo("message_end");
        String written = events.stream().filter(e -> e.get("event").asText().equals("message"))
                .map(e -> e.get("answer").asText()).reduce("", String::concat);
        assertThat(written).startsWith("one").doesNotContain("eight");
    }

    @Test
    void aKeyOnARouteOfAnotherModeGetsDifysRefusal() {
        for (ServiceApi other : List.of(chat, agent, workflow, chatflow)) {
            HttpResponse<String> refused = other.postJson("/v1/completion-messages", completionRequest("blocking"));
            assertRefused(refused, "app_unavailable", UNAVAILABLE);
            assertRefused(other.postJson("/v1/completion-messages/some-task/stop", Map.of("user", "ada")),
                    "app_unavailable", UNAVAILABLE);
        }
        assertRefused(completion.postJson("/v1/chat-messages", message("hi", Map.of(), null, "blocking")),
                "not_chat_app", "Please check if your app mode matches the right API route.");
        assertRefused(completion.postJson("/v1/chat-messages/some-task/stop", Map.of("user", "ada")),
                "not_chat_app", "Please check if your app mode matches the right API route.");
        for (ServiceApi easy : List.of(chat, agent, completion)) {
            assertRefused(easy.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking", "ada")),
                    "not_workflow_app", "Please check if your app mode matches the right API route.");
        }
        assertRefused(completion.get("/v1/conversations?user=ada"), "not_chat_app",
                "Please check if your app mode matches the right API route.");
    }

    @Test
    void theAppPageReadsTheModelConfigAsDifysParametersAndInfoDo() {
        JsonNode parameters = json(chat.get("/v1/parameters"));
        JsonNode info = json(chat.get("/v1/info"));
        JsonNode completionForm = json(completion.get("/v1/parameters")).get("user_input_form");

        assertThat(parameters.get("opening_statement").asText()).isEqualTo("Hello! What is your name?");
        assertThat(parameters.get("suggested_questions")).extracting(JsonNode::asText)
                .containsExactly("What can you do?");
        assertThat(parameters.at("/user_input_form/0/text-input/variable").asText()).isEqualTo("name");
        assertThat(parameters.at("/user_input_form/0/text-input/max_length").asInt()).isEqualTo(48);
        assertThat(info.get("mode").asText()).isEqualTo("chat");
        assertThat(info.get("name").asText()).isEqualTo("Greeter");
        assertThat(completionForm.at("/1/select/options")).extracting(JsonNode::asText)
                .containsExactly("haiku", "limerick");
        assertThat(json(completion.get("/v1/info")).get("mode").asText()).isEqualTo("completion");
    }

    @Test
    void theDslIsExportedAsItWasImported() throws IOException {
        String original;
        try (InputStream in = getClass().getResourceAsStream("/apps/easy-chat.yml")) {
            original = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        HttpResponse<String> exported = server.admin("GET", "/admin/apps/" + chatApp.get("app_id").asText()
                + "/dsl", null, null);

        assertThat(exported.statusCode()).isEqualTo(200);
        assertThat(exported.body()).isEqualTo(original).contains("version: 0.6.0", "pre_prompt:");
    }

    private static void assertRefused(HttpResponse<String> response, String code, String message) {
        JsonNode body = json(response);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("message").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(400);
    }

    /** The data frames of a stream, each shown to {@code seen} as it comes. */
    private static List<JsonNode> frames(HttpResponse<InputStream> response, Predicate<JsonNode> seen)
            throws IOException {
        List<JsonNode> events = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("data: ")) {
                    JsonNode event = TestServer.json(line.substring(6));
                    events.add(event);
                    seen.test(event);
                }
            }
        }
        return events;
    }

    private static List<String> sent(int request) {
        List<String> flat = new ArrayList<>();
        model.requests().get(request).get("messages").forEach(m -> flat.add(m.get("role").asText() + ": "
                + m.get("content").asText()));
        return flat;
    }

    private static Map<String, Object> message(String query, Map<String, Object> inputs, String conversationId,
            String mode) {
        Map<String, Object> body = new HashMap<>();
        body.put("query", query);
        body.put("inputs", inputs);
        body.put("user", "ada");
        body.put("response_mode", mode);
        body.put("auto_generate_name", false);
        if (conversationId != null) {
            body.put("conversation_id", conversationId);
        }
        return body;
    }

    private static Map<String, Object> completionRequest(String mode) {
        return Map.of("inputs", Map.of("subject", "the sea", "style", "haiku"), "response_mode", mode,
                "user", "ada");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
