package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.ServiceSettings;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dify's chat Service API on a real server, with a chatflow whose model is a fake OpenAI-compatible server on
 * loopback: turns blocking and streamed, memory and conversation variables across turns, the conversation store's
 * routes, stop, a client that leaves, and every error with Dify's code, message and status.
 */
class ChatApiHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> FRAME_HEAD = List.of("event", "conversation_id", "message_id", "created_at",
            "task_id");

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static ServiceApi chat;
    static String chatKey;
    static String chatSite;
    static ServiceApi workflow;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withService(ServiceSettings.DEFAULTS
                        .withPingInterval(Duration.ofMillis(300)).withShutdownGrace(Duration.ofSeconds(1)))
                .withEngine(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model"))
                        .withLlm(model.baseUrl(), "sk-t")));
        JsonNode imported = server.importApp("chatflow.yml");
        chatKey = imported.get("api_key").asText();
        chatSite = imported.get("site_code").asText();
        chat = server.api(chatKey);
        workflow = server.api(server.importApp("echo.yml").get("api_key").asText());
    }

    @AfterAll
    static void stop() {
        server.close();
        model.close();
    }

    @BeforeEach
    void answerOk() {
        model.answer(Script.text("Hello there friend", 7, 3));
    }

    // ---- a turn

    @Test
    void aBlockingMessageAnswersChatbotAppBlockingResponseAndBeginsANamedConversation() {
        JsonNode body = json(chat.postJson("/v1/chat-messages", message("What is the capital of Portugal, please?",
                null, "ada", "blocking")));

        assertThat(fieldNames(body)).containsExactly("event", "task_id", "id", "message_id", "conversation_id",
                "mode", "answer", "metadata", "created_at");
        assertThat(body.get("event").asText()).isEqualTo("message");
        assertThat(body.get("id").asText()).isEqualTo(body.get("message_id").asText());
        assertThat(body.get("mode").asText()).isEqualTo("advanced-chat");
        assertThat(body.get("answer").asText()).isEqualTo("Hello there friend");
        assertThat(body.get("metadata").get("retriever_resources")).isEmpty();
        JsonNode usage = body.get("metadata").get("usage");
        assertThat(fieldNames(usage)).containsExactly("prompt_tokens", "prompt_unit_price", "prompt_price_unit",
                "prompt_price", "completion_tokens", "completion_unit_price", "completion_price_unit",
                "completion_price", "total_tokens", "total_price", "currency", "latency");
        assertThat(usage.get("prompt_tokens").asLong()).isEqualTo(7);
        assertThat(usage.get("completion_tokens").asLong()).isEqualTo(3);
        assertThat(usage.get("total_tokens").asLong()).isEqualTo(10);
        assertThat(usage.get("total_price").isTextual()).isTrue();
        assertThat(body.get("created_at").isIntegralNumber()).isTrue();

        JsonNode conversations = json(chat.get("/v1/conversations?user=ada&limit=100"));
        JsonNode conversation = find(conversations.get("data"), body.get("conversation_id").asText());
        assertThat(conversation.get("name").asText()).isEqualTo("What is the capital …");
        assertThat(conversation.get("introduction").asText()).isEqualTo("Hello {{name}}, ask me anything.");
        assertThat(conversation.get("status").asText()).isEqualTo("normal");
    }

    @Test
    void aSecondTurnGivesTheModelTheFirstTurnAndTheConversationVariableItLeft() {
        JsonNode first = json(chat.postJson("/v1/chat-messages", message("my name is Ada", null, "bea",
                "blocking")));
        String conversationId = first.get("conversation_id").asText();
        model.requests().clear();

        JsonNode second = json(chat.postJson("/v1/chat-messages", message("what is my name?", conversationId,
                "bea", "blocking")));

        assertThat(second.get("conversation_id").asText()).isEqualTo(conversationId);
        JsonNode messages = model.requests().get(0).get("messages");
        assertThat(messages).extracting(m -> m.get("role").asText() + ": " + text(m.get("content")))
                .containsExactly("system: The previous query was my name is Ada.", "user: my name is Ada",
                        "assistant: Hello there friend", "user: what is my name?");
        JsonNode variables = json(chat.get("/v1/conversations/" + conversationId + "/variables?user=bea"));
        assertThat(variables.get("data").get(0).get("name").asText()).isEqualTo("last");
        assertThat(variables.get("data").get(0).get("value").asText()).isEqualTo("what is my name?");
    }

    @Test
    void aVariableChangedThroughTheApiIsWhatTheNextTurnSees() {
        String conversationId = json(chat.postJson("/v1/chat-messages", message("one", null, "cy", "blocking")))
                .get("conversation_id").asText();
        JsonNode variable = json(chat.get("/v1/conversations/" + conversationId + "/variables?user=cy"))
                .get("data").get(0);

        HttpResponse<String> put = server.send("PUT", "/v1/conversations/" + conversationId + "/variables/"
                + variable.get("id").asText(), "application/json", "{\"value\": \"set by hand\", \"user\": \"cy\"}",
                chatKey);
        model.requests().clear();
        chat.postJson("/v1/chat-messages", message("two", conversationId, "cy", "blocking"));

        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(json(put).get("value").asText()).isEqualTo("set by hand");
        assertThat(text(model.requests().get(0).get("messages").get(0).get("content")))
                .isEqualTo("The previous query was set by hand.");
    }

    @Test
    void aStreamedMessageSendsDifysFramesEachWithTheChatFields() throws IOException {
        HttpResponse<InputStream> response = chat.postStreaming("/v1/chat-messages", message("stream please", null,
                "dan", "streaming"));
        List<JsonNode> events = frames(new String(response.body().readAllBytes(), StandardCharsets.UTF_8));

        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
        List<String> kinds = events.stream().map(e -> e.get("event").asText()).toList();
        assertThat(kinds.get(0)).isEqualTo("workflow_started");
        assertThat(kinds).containsSubsequence("workflow_started", "node_started", "message", "node_finished",
                "workflow_finished", "message_end");
        assertThat(kinds.get(kinds.size() - 1)).isEqualTo("message_end");
        JsonNode head = events.get(0);
        for (JsonNode event : events) {
            assertThat(fieldNames(event).subList(0, 5)).containsExactlyElementsOf(FRAME_HEAD);
            for (String field : List.of("conversation_id", "message_id", "created_at", "task_id")) {
                assertThat(event.get(field)).as(field).isEqualTo(head.get(field));
            }
        }
        assertThat(head.get("workflow_run_id").asText()).isEqualTo(head.get("data").get("id").asText());
        StringBuilder answer = new StringBuilder();
        for (JsonNode event : events) {
            if (event.get("event").asText().equals("message")) {
                assertThat(fieldNames(event)).containsExactly("event", "conversation_id", "message_id",
                        "created_at", "task_id", "id", "answer", "from_variable_selector");
                assertThat(event.get("id").asText()).isEqualTo(head.get("message_id").asText());
                answer.append(event.get("answer").asText());
            }
        }
        assertThat(answer.toString()).isEqualTo("Hello there friend");
        JsonNode finished = events.get(kinds.indexOf("workflow_finished"));
        assertThat(finished.get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(finished.get("data").get("outputs").get("answer").asText()).isEqualTo("Hello there friend");
        JsonNode end = events.get(events.size() - 1);
        assertThat(fieldNames(end)).containsExactly("event", "conversation_id", "message_id", "created_at",
                "task_id", "id", "metadata", "files");
        assertThat(end.get("metadata").get("usage").get("total_tokens").asLong()).isEqualTo(10);

        JsonNode kept = json(chat.get("/v1/messages?user=dan&conversation_id=" + head.get("conversation_id")
                .asText())).get("data").get(0);
        assertThat(kept.get("id").asText()).isEqualTo(head.get("message_id").asText());
        assertThat(kept.get("answer").asText()).isEqualTo("Hello there friend");
        assertThat(kept.get("status").asText()).isEqualTo("normal");
    }

    @Test
    void aModelThatFailsAnswersRunFailedWithDifysCodeForAModelFailureBlockingAndStreamed() throws IOException {
        model.answer(Script.failure(500, "the model is down"));
        HttpResponse<String> blocking = chat.postJson("/v1/chat-messages", message("hi", null, "eve", "blocking"));
        HttpResponse<InputStream> streamed = chat.postStreaming("/v1/chat-messages", message("hi", null, "eve",
                "streaming"));
        List<JsonNode> events = frames(new String(streamed.body().readAllBytes(), StandardCharsets.UTF_8));

        assertThat(blocking.statusCode()).isEqualTo(400);
        assertThat(json(blocking).get("code").asText()).isEqualTo("completion_request_error");
        assertThat(json(blocking).get("message").asText()).startsWith("Run failed: ").contains("the model is down");
        JsonNode finished = events.get(events.size() - 2);
        JsonNode error = events.get(events.size() - 1);
        assertThat(finished.get("event").asText()).isEqualTo("workflow_finished");
        assertThat(finished.get("data").get("status").asText()).isEqualTo("failed");
        assertThat(error.get("event").asText()).isEqualTo("error");
        assertThat(error.get("code").asText()).isEqualTo("completion_request_error");
        assertThat(error.get("status").asInt()).isEqualTo(400);
        assertThat(error.get("message").asText()).startsWith("Run failed: ");
        JsonNode kept = json(chat.get("/v1/messages?user=eve&conversation_id=" + error.get("conversation_id")
                .asText())).get("data").get(0);
        assertThat(kept.get("status").asText()).isEqualTo("error");
        assertThat(kept.get("error").asText()).contains("the model is down");
    }

    @Test
    void aTurnsRunIsListedInTheAppsWorkflowLogs() throws IOException {
        HttpResponse<InputStream> response = chat.postStreaming("/v1/chat-messages", message("log me", null, "ole",
                "streaming"));
        String runId = frames(new String(response.body().readAllBytes(), StandardCharsets.UTF_8)).get(0)
                .get("workflow_run_id").asText();

        JsonNode logs = json(chat.get("/v1/workflows/logs?limit=100"));

        List<String> listed = new ArrayList<>();
        logs.get("data").forEach(log -> listed.add(log.get("workflow_run").get("id").asText()));
        assertThat(listed).contains(runId);
    }

    // ---- the conversation store

    @Test
    void historyPagesGoBackFromFirstIdEachPageOldestFirst() {
        String conversationId = null;
        List<String> ids = new ArrayList<>();
        for (String query : List.of("q1", "q2", "q3")) {
            JsonNode sent = json(chat.postJson("/v1/chat-messages", message(query, conversationId, "fay",
                    "blocking")));
            conversationId = sent.get("conversation_id").asText();
            ids.add(sent.get("message_id").asText());
        }

        JsonNode newest = json(chat.get("/v1/messages?user=fay&limit=2&conversation_id=" + conversationId));
        JsonNode older = json(chat.get("/v1/messages?user=fay&limit=2&conversation_id=" + conversationId
                + "&first_id=" + ids.get(1)));

        assertThat(newest.get("data")).extracting(m -> m.get("query").asText()).containsExactly("q2", "q3");
        assertThat(newest.get("has_more").asBoolean()).isTrue();
        assertThat(newest.get("limit").asInt()).isEqualTo(2);
        assertThat(older.get("data")).extracting(m -> m.get("query").asText()).containsExactly("q1");
        assertThat(older.get("has_more").asBoolean()).isFalse();
        assertThat(newest.get("data").get(1).get("parent_message_id").asText()).isEqualTo(ids.get(1));
        assertThat(fieldNames(newest.get("data").get(0))).contains("id", "conversation_id", "parent_message_id",
                "inputs", "query", "answer", "message_files", "feedback", "retriever_resources", "created_at",
                "agent_thoughts", "status", "error");
    }

    @Test
    void conversationsAreListedPagedRenamedAndDeleted() {
        String a = newConversation("gus", "first");
        String b = newConversation("gus", "second");

        JsonNode page = json(chat.get("/v1/conversations?user=gus&limit=1&sort_by=created_at"));
        JsonNode next = json(chat.get("/v1/conversations?user=gus&limit=1&sort_by=created_at&last_id="
                + page.get("data").get(0).get("id").asText()));
        JsonNode renamed = json(chat.postJson("/v1/conversations/" + a + "/name", Map.of("name", "Renamed",
                "user", "gus")));
        HttpResponse<String> deleted = server.send("DELETE", "/v1/conversations/" + b, "application/json",
                "{\"user\": \"gus\"}", chatKey);
        JsonNode after = json(chat.get("/v1/conversations?user=gus"));

        assertThat(page.get("data")).extracting(c -> c.get("id").asText()).containsExactly(a);
        assertThat(page.get("has_more").asBoolean()).isTrue();
        assertThat(next.get("data")).extracting(c -> c.get("id").asText()).containsExactly(b);
        assertThat(fieldNames(renamed)).containsExactly("id", "name", "inputs", "status", "introduction",
                "created_at", "updated_at");
        assertThat(renamed.get("name").asText()).isEqualTo("Renamed");
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(after.get("data")).extracting(c -> c.get("id").asText() + " " + c.get("name").asText())
                .containsExactly(a + " Renamed");
    }

    @Test
    void feedbackIsShownOnTheMessageAndInTheAppsFeedbacks() {
        JsonNode sent = json(chat.postJson("/v1/chat-messages", message("rate me", null, "hal", "blocking")));
        String messageId = sent.get("message_id").asText();

        JsonNode given = json(chat.postJson("/v1/messages/" + messageId + "/feedbacks", Map.of("rating", "like",
                "content", "nice", "user", "hal")));
        JsonNode listed = json(chat.get("/v1/messages?user=hal&conversation_id=" + sent.get("conversation_id")
                .asText())).get("data").get(0);
        JsonNode feedbacks = json(chat.get("/v1/app/feedbacks?limit=100"));

        assertThat(given.get("result").asText()).isEqualTo("success");
        assertThat(listed.get("feedback").get("rating").asText()).isEqualTo("like");
        JsonNode feedback = null;
        for (JsonNode item : feedbacks.get("data")) {
            if (item.get("message_id").asText().equals(messageId)) {
                feedback = item;
            }
        }
        assertThat(feedback).isNotNull();
        assertThat(feedback.get("rating").asText()).isEqualTo("like");
        assertThat(feedback.get("content").asText()).isEqualTo("nice");
    }

    @Test
    void suggestedQuestionsComeFromTheModelAfterAnAnswer() {
        String messageId = json(chat.postJson("/v1/chat-messages", message("suggest", null, "ivy", "blocking")))
                .get("message_id").asText();
        model.answer(Script.text("[\"Why?\", \"How?\", \"When?\"]", 5, 5));

        JsonNode suggested = json(chat.get("/v1/messages/" + messageId + "/suggested?user=ivy"));

        assertThat(suggested.get("result").asText()).isEqualTo("success");
        assertThat(suggested.get("data")).extracting(JsonNode::asText).containsExactly("Why?", "How?", "When?");
    }

    @Test
    void aNewConversationIsNamedByTheModelAfterItsFirstTurn() throws InterruptedException {
        model.answerInTurn(Script.text("Hello there friend", 7, 3),
                Script.text("{\"Your Output\": \"Capital question\"}", 5, 5));
        Map<String, Object> body = new HashMap<>(message("What is the capital of Portugal?", null, "jan",
                "blocking"));
        body.put("auto_generate_name", true);
        String conversationId = json(chat.postJson("/v1/chat-messages", body)).get("conversation_id").asText();

        String name = "";
        for (int i = 0; i < 50 && !name.equals("Capital question"); i++) {
            Thread.sleep(100);
            name = find(json(chat.get("/v1/conversations?user=jan")).get("data"), conversationId).get("name")
                    .asText();
        }
        assertThat(name).isEqualTo("Capital question");
    }

    // ---- stop and a client that leaves

    @Test
    void aStoppedTurnEndsStoppedAndKeepsWhatWasAnswered() throws IOException {
        model.answer(Script.text("one two three four five six seven eight", 1, 1).pausing(150));
        HttpResponse<InputStream> response = chat.postStreaming("/v1/chat-messages", message("long", null, "kim",
                "streaming"));
        List<JsonNode> events = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
                StandardCharsets.UTF_8))) {
            String line;
            boolean stopped = false;
            while ((line = lines.readLine()) != null) {
                if (!line.startsWith("data: ")) {
                    continue;
                }
                JsonNode event = JSON.readTree(line.substring(6));
                events.add(event);
                if (!stopped && event.get("event").asText().equals("message")) {
                    stopped = true;
                    HttpResponse<String> stop = chat.postJson("/v1/chat-messages/" + event.get("task_id").asText()
                            + "/stop", Map.of("user", "kim"));
                    assertThat(json(stop).get("result").asText()).isEqualTo("success");
                }
            }
        }

        List<String> kinds = events.stream().map(e -> e.get("event").asText()).toList();
        assertThat(kinds).endsWith("workflow_finished", "message_end");
        assertThat(events.get(kinds.indexOf("workflow_finished")).get("data").get("status").asText())
                .isEqualTo("stopped");
        JsonNode kept = json(chat.get("/v1/messages?user=kim&conversation_id=" + events.get(0)
                .get("conversation_id").asText())).get("data").get(0);
        assertThat(kept.get("status").asText()).isEqualTo("stopped");
        assertThat(kept.get("answer").asText()).startsWith("one").doesNotContain("eight");
    }

    @Test
    void aConversationDeletedWhileItsTurnRunsEndsTheStreamWithMessageEnd() throws IOException {
        model.answer(Script.text("one two three four five six", 1, 1).pausing(150));
        HttpResponse<InputStream> response = chat.postStreaming("/v1/chat-messages", message("count", null, "del",
                "streaming"));
        List<JsonNode> events = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
                StandardCharsets.UTF_8))) {
            String line;
            boolean deleted = false;
            while ((line = lines.readLine()) != null) {
                if (!line.startsWith("data: ")) {
                    continue;
                }
                JsonNode event = JSON.readTree(line.substring(6));
                events.add(event);
                if (!deleted && event.get("event").asText().equals("message")) {
                    deleted = true;
                    HttpResponse<String> gone = server.send("DELETE", "/v1/conversations/"
                            + event.get("conversation_id").asText(), "application/json", "{\"user\":\"del\"}",
                            chatKey);
                    assertThat(gone.statusCode()).as(gone.body()).isEqualTo(204);
                }
            }
        }

        List<String> kinds = events.stream().map(e -> e.get("event").asText()).toList();
        assertThat(kinds).endsWith("workflow_finished", "message_end").doesNotContain("error");
        assertThat(json(chat.get("/v1/conversations?user=del&limit=100")).get("data")).isEmpty();
    }

    @Test
    void aClientThatLeavesMidAnswerStillLeavesTheWholeMessageKept() throws Exception {
        model.answer(Script.text("alpha beta gamma delta epsilon", 1, 1).pausing(100));
        HttpResponse<InputStream> response = chat.postStreaming("/v1/chat-messages", message("leave", null, "lou",
                "streaming"));
        String conversationId = null;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("data: ") && JSON.readTree(line.substring(6)).get("event").asText()
                        .equals("message")) {
                    conversationId = JSON.readTree(line.substring(6)).get("conversation_id").asText();
                    break;
                }
            }
        }

        String answer = "";
        for (int i = 0; i < 50 && !answer.equals("alpha beta gamma delta epsilon"); i++) {
            Thread.sleep(100);
            answer = json(chat.get("/v1/messages?user=lou&conversation_id=" + conversationId)).get("data").get(0)
                    .get("answer").asText();
        }
        assertThat(answer).isEqualTo("alpha beta gamma delta epsilon");
    }

    @Test
    void theAppsPageTalksThroughTheChatRoutesWithItsToken() {
        TestServer.PageToken token = server.pageToken(chatSite, null);
        ServiceApi page = chat.withKey(token.token());

        JsonNode sent = json(page.postJson("/v1/chat-messages", message("from the page", null, token.user(),
                "blocking")));
        JsonNode conversations = json(page.get("/v1/conversations?user=" + token.user()));
        HttpResponse<String> feedbacks = page.get("/v1/app/feedbacks");
        HttpResponse<String> asAnother = page.get("/v1/conversations?user=page-user");

        assertThat(token.user()).matches("web-[0-9a-f]{32}");
        assertThat(sent.get("answer").asText()).isEqualTo("Hello there friend");
        assertThat(conversations.get("data")).extracting(c -> c.get("id").asText())
                .containsExactly(sent.get("conversation_id").asText());
        assertThat(feedbacks.statusCode()).as("every user's feedback is the app key's alone").isEqualTo(403);
        assertThat(asAnother.statusCode()).as("the token acts for its own user only").isEqualTo(403);
    }

    @Test
    void textToAudioSpeaksAMessagesAnswerOnlyWhenTheAppsFeatureIsOn() {
        String messageId = json(chat.postJson("/v1/chat-messages", message("speak", null, "pat", "blocking")))
                .get("message_id").asText();

        HttpResponse<String> off = chat.postJson("/v1/text-to-audio", Map.of("message_id", messageId, "user",
                "pat"));
        HttpResponse<String> onWorkflow = workflow.postJson("/v1/text-to-audio", Map.of("text", "hi", "user",
                "pat"));

        assertError(off, 400, "invalid_param", "TTS is not enabled");
        assertError(onWorkflow, 400, "invalid_param", "TTS is not enabled");
    }

    @Test
    void textToAudioSpeaksTheAnswerInTheFeaturesVoiceOrTheTextInTheVoiceAsked() {
        ServiceApi speaking = server.api(server.importApp("chatflow-speaks.yml").get("api_key").asText());
        String messageId = json(speaking.postJson("/v1/chat-messages", message("say it", null, "quin",
                "blocking"))).get("message_id").asText();

        HttpResponse<String> answer = speaking.postJson("/v1/text-to-audio", Map.of("message_id", messageId,
                "user", "quin"));
        HttpResponse<String> text = speaking.postJson("/v1/text-to-audio", Map.of("text", "hi", "voice", "echo",
                "user", "quin"));
        HttpResponse<String> theirs = speaking.postJson("/v1/text-to-audio", Map.of("message_id", messageId,
                "user", "rex"));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type").orElseThrow()).startsWith("audio/mpeg");
        assertThat(answer.body()).isEqualTo("MP3:nova:Spoken words");
        assertThat(text.body()).isEqualTo("MP3:echo:hi");
        assertError(theirs, 404, "not_found", "Message Not Exists.");
    }

    // ---- files

    @Test
    void aTurnsFilesAreKeptWithItsMessageAndTheAnswersFilesStreamAsMessageFiles() throws IOException {
        ServiceApi files = server.api(server.importApp("chatflow-files.yml").get("api_key").asText());
        byte[] content = "the minutes of the meeting".getBytes(StandardCharsets.UTF_8);
        String uploadId = files.upload("uma", "minutes.txt", "text/plain", content);
        Map<String, Object> body = message("here is my file", null, "uma", "streaming");
        body.put("files", List.of(Map.of("type", "document", "transfer_method", "local_file", "upload_file_id",
                uploadId)));

        List<JsonNode> events = frames(new String(files.postStreaming("/v1/chat-messages", body).body()
                .readAllBytes(), StandardCharsets.UTF_8));

        List<String> kinds = events.stream().map(e -> e.get("event").asText()).toList();
        assertThat(kinds).containsSubsequence("node_finished", "message_file", "workflow_finished", "message_end");
        JsonNode shown = events.get(kinds.indexOf("message_file"));
        assertThat(fieldNames(shown)).containsExactly("event", "conversation_id", "message_id", "created_at",
                "task_id", "id", "type", "belongs_to", "url");
        assertThat(shown.get("type").asText()).isEqualTo("document");
        assertThat(shown.get("belongs_to").asText()).isEqualTo("assistant");
        assertThat(shown.get("url").asText()).startsWith("/files/" + uploadId + "/file-preview?timestamp=");
        JsonNode ended = events.get(events.size() - 1).get("files");
        assertThat(ended).hasSize(1);
        assertThat(ended.get(0).get("id").asText()).isEqualTo(shown.get("id").asText());
        assertThat(ended.get(0).get("related_id").asText()).isEqualTo(uploadId);

        JsonNode kept = json(files.get("/v1/messages?user=uma&conversation_id=" + events.get(0)
                .get("conversation_id").asText())).get("data").get(0).get("message_files");
        assertThat(kept).extracting(file -> file.get("belongs_to").asText()).containsExactly("user", "assistant");
        JsonNode users = kept.get(0);
        assertThat(fieldNames(users)).containsExactly("id", "filename", "type", "url", "mime_type", "size",
                "transfer_method", "belongs_to", "upload_file_id");
        assertThat(users.get("filename").asText()).isEqualTo("minutes.txt");
        assertThat(users.get("size").asLong()).isEqualTo(content.length);
        assertThat(users.get("transfer_method").asText()).isEqualTo("local_file");
        assertThat(users.get("upload_file_id").asText()).isEqualTo(uploadId);
        assertThat(users.get("id").asText()).isNotEqualTo(uploadId);
        assertThat(kept.get(1).get("id").asText()).isEqualTo(shown.get("id").asText());
        HttpResponse<byte[]> preview = server.getBytes(users.get("url").asText());
        assertThat(preview.statusCode()).isEqualTo(200);
        assertThat(preview.body()).isEqualTo(content);
        assertThat(preview.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain");
        HttpResponse<byte[]> forged = server.getBytes(users.get("url").asText().replace("sign=", "sign=A"));
        assertThat(forged.statusCode()).isEqualTo(403);
        HttpResponse<byte[]> other = server.getBytes(users.get("url").asText().replace(uploadId,
                "7d3b2a1c-0e9f-4a8b-9c7d-6e5f4a3b2c1d"));
        assertThat(other.statusCode()).as("a signature names its file").isEqualTo(403);
    }

    @Test
    void audioToTextAnswersTheEndpointsTranscriptOnlyWhenTheAppsFeatureIsOn() {
        ServiceApi listening = server.api(server.importApp("chatflow-speaks.yml").get("api_key").asText());
        byte[] audio = "ID3 spoken words".getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> heard = listening.multipart("/v1/audio-to-text", List.of(
                ServiceApi.Part.field("user", "val"), ServiceApi.Part.file("question.mp3", "audio/mpeg", audio)));
        HttpResponse<String> nobody = listening.multipart("/v1/audio-to-text", List.of(
                ServiceApi.Part.file("question.mp3", "audio/mpeg", audio)));
        HttpResponse<String> off = chat.multipart("/v1/audio-to-text", List.of(ServiceApi.Part.field("user", "val"),
                ServiceApi.Part.file("question.mp3", "audio/mpeg", audio)));
        HttpResponse<String> none = listening.multipart("/v1/audio-to-text", List.of(
                ServiceApi.Part.field("user", "val")));
        HttpResponse<String> text = listening.multipart("/v1/audio-to-text", List.of(
                ServiceApi.Part.field("user", "val"), ServiceApi.Part.file("notes.txt", "text/plain", audio)));
        HttpResponse<String> large = listening.multipart("/v1/audio-to-text", List.of(
                ServiceApi.Part.field("user", "val"),
                ServiceApi.Part.file("long.wav", "audio/wav", new byte[30 * 1024 * 1024 + 1])));

        assertThat(heard.statusCode()).as(heard.body()).isEqualTo(200);
        assertThat(fieldNames(json(heard))).containsExactly("text");
        assertThat(json(heard).get("text").asText()).isEqualTo("whisper-1|question.mp3|ID3 spoken words");
        assertError(nobody, 400, "invalid_param", "Arg user must be provided.");
        assertError(off, 400, "invalid_param", "Speech to text is not enabled");
        assertError(none, 400, "no_audio_uploaded", "Please upload your audio.");
        assertError(text, 415, "unsupported_audio_type", "Audio type not allowed.");
        assertError(large, 413, "audio_too_large", "Audio size larger than 30 mb");
    }

    @Test
    void anAppThatSpeaksAtOnceStreamsTheAnswersSpeechAfterMessageEnd() throws IOException {
        ServiceApi speaking = server.api(server.importApp("chatflow-autoplay.yml").get("api_key").asText());

        List<JsonNode> events = frames(new String(speaking.postStreaming("/v1/chat-messages", message("say it",
                null, "wes", "streaming")).body().readAllBytes(), StandardCharsets.UTF_8));

        List<String> kinds = events.stream().map(e -> e.get("event").asText()).toList();
        assertThat(kinds).containsSubsequence("workflow_finished", "message_end", "tts_message", "tts_message_end");
        assertThat(kinds.get(kinds.size() - 1)).isEqualTo("tts_message_end");
        JsonNode spoken = events.get(kinds.indexOf("tts_message"));
        assertThat(fieldNames(spoken)).containsExactly("event", "conversation_id", "message_id", "created_at",
                "task_id", "audio");
        assertThat(spoken.get("message_id").asText()).isEqualTo(events.get(0).get("message_id").asText());
        assertThat(new String(java.util.Base64.getDecoder().decode(spoken.get("audio").asText()),
                StandardCharsets.UTF_8)).isEqualTo("MP3:nova:Spoken words");
        assertThat(events.get(events.size() - 1).get("audio").asText()).isEmpty();
    }

    // ---- errors, as Dify answers them

    @Test
    void everyMistakeIsAnsweredWithDifysCodeMessageAndStatus() {
        String conversationId = newConversation("max", "mine");

        assertError(chat.postJson("/v1/chat-messages", Map.of("query", "hi", "inputs", Map.of())), 400,
                "invalid_param", "Arg user must be provided.");
        assertError(workflow.postJson("/v1/chat-messages", message("hi", null, "max", "blocking")), 400,
                "not_chat_app", "Please check if your app mode matches the right API route.");
        assertError(chat.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking", "max")), 400,
                "not_workflow_app", "Please check if your app mode matches the right API route.");
        assertError(chat.postJson("/v1/chat-messages", Map.of("inputs", Map.of(), "user", "max")), 400,
                "invalid_param", "query is required");
        assertError(chat.postJson("/v1/chat-messages", message("hi", "not-a-uuid", "max", "blocking")), 400,
                "invalid_param", "conversation_id must be a valid UUID");
        assertError(chat.postJson("/v1/chat-messages", message("hi", "7d3b2a1c-0e9f-4a8b-9c7d-6e5f4a3b2c1d", "max",
                "blocking")), 404, "not_found", "Conversation Not Exists.");
        assertError(chat.postJson("/v1/chat-messages", message("hi", conversationId, "ned", "blocking")), 404,
                "not_found", "Conversation Not Exists.");
        assertError(workflow.get("/v1/conversations?user=max"), 400, "not_chat_app",
                "Please check if your app mode matches the right API route.");
        assertError(chat.get("/v1/messages?user=ned&conversation_id=" + conversationId), 404, "not_found",
                "Conversation Not Exists.");
        assertError(chat.postJson("/v1/conversations/" + conversationId + "/name", Map.of("user", "max")), 400,
                "invalid_param", "name is required when auto_generate is false");
    }

    @Test
    void aChatflowDescribesItselfForChatClients() {
        JsonNode info = json(chat.get("/v1/info"));
        JsonNode parameters = json(chat.get("/v1/parameters"));
        JsonNode meta = json(chat.get("/v1/meta"));

        assertThat(info.get("mode").asText()).isEqualTo("advanced-chat");
        assertThat(parameters.get("opening_statement").asText()).isEqualTo("Hello {{name}}, ask me anything.");
        assertThat(parameters.get("suggested_questions")).extracting(JsonNode::asText)
                .containsExactly("What can you do?");
        assertThat(parameters.get("suggested_questions_after_answer").get("enabled").asBoolean()).isTrue();
        assertThat(parameters.get("retriever_resource").get("enabled").asBoolean()).isTrue();
        assertThat(meta.get("tool_icons")).isEmpty();
    }

    // ---- helpers

    private static String newConversation(String user, String query) {
        return json(chat.postJson("/v1/chat-messages", message(query, null, user, "blocking")))
                .get("conversation_id").asText();
    }

    static Map<String, Object> message(String query, String conversationId, String user, String mode) {
        Map<String, Object> body = new HashMap<>();
        body.put("query", query);
        body.put("inputs", Map.of());
        body.put("user", user);
        body.put("response_mode", mode);
        body.put("auto_generate_name", false);
        if (conversationId != null) {
            body.put("conversation_id", conversationId);
        }
        return body;
    }

    private static void assertError(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).as(response.body()).isEqualTo(code);
        assertThat(body.get("message").asText()).isEqualTo(message);
        assertThat(body.get("status").asInt()).isEqualTo(status);
    }

    static List<JsonNode> frames(String body) throws IOException {
        List<JsonNode> events = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            if (frame.startsWith("data: ")) {
                events.add(JSON.readTree(frame.substring("data: ".length())));
            }
        }
        return events;
    }

    private static JsonNode find(JsonNode items, String id) {
        for (JsonNode item : items) {
            if (item.get("id").asText().equals(id)) {
                return item;
            }
        }
        throw new AssertionError(id + " not in " + items);
    }

    private static String text(JsonNode content) {
        return content.isTextual() ? content.asText() : content.get(0).get("text").asText();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
