package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chatflow turn that waits for a person, over Dify's Service API on the real server and store, with no model:
 * the turn streams (or answers, blocking) its pause with the answer so far, its message is kept paused and the
 * conversation's variables are left as they were; the form answered, the run goes on and completes the same
 * message, and the conversation goes on with a next turn.
 */
class ChatPauseHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void aStreamedTurnEndsWithItsPauseAndTheAnsweredFormCompletesItsMessage() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            ServiceApi api = server.api(server.importApp("ask.yml").get("api_key").asText());
            List<JsonNode> frames = ChatApiHttpTest.frames(new String(api.postStreaming("/v1/chat-messages",
                    turn("the plan", null, "streaming")).body().readAllBytes(), StandardCharsets.UTF_8));

            List<String> kinds = frames.stream().map(frame -> frame.get("event").asText()).toList();
            assertThat(kinds).doesNotContain("message_end", "workflow_finished")
                    .containsSubsequence("message", "human_input_required", "workflow_paused")
                    .last().isEqualTo("workflow_paused");
            JsonNode head = frames.get(0);
            for (JsonNode frame : frames) {
                for (String field : List.of("message_id", "conversation_id", "created_at", "task_id")) {
                    assertThat(frame.get(field)).as(frame.get("event") + " " + field).isEqualTo(head.get(field));
                }
            }
            assertThat(answerOf(frames)).isEqualTo("Checking the plan. ");
            JsonNode required = frames.get(kinds.indexOf("human_input_required")).get("data");
            assertThat(required.get("form_content").asText()).isEqualTo("May I answer the plan?\n\nNote: "
                    + "{{#$output.note#}}");
            JsonNode paused = frames.get(frames.size() - 1).get("data");
            assertThat(paused.get("status").asText()).isEqualTo("paused");
            assertThat(paused.get("paused_nodes").get(0).asText()).isEqualTo("review");
            String conversationId = head.get("conversation_id").asText();
            JsonNode kept = messages(api, conversationId).get(0);
            assertThat(kept.get("id").asText()).isEqualTo(head.get("message_id").asText());
            assertThat(kept.get("answer").asText()).isEqualTo("Checking the plan. ");
            assertThat(kept.get("status").asText()).isEqualTo("paused");
            assertThat(lastQuery(api, conversationId)).as("a half run keeps no variable").isEqualTo("none");

            answer(api, required.get("form_token").asText(), "approve", "go ahead");

            JsonNode completed = awaitEnd(api, conversationId, 0);
            assertThat(completed.get("id").asText()).isEqualTo(head.get("message_id").asText());
            assertThat(completed.get("answer").asText()).isEqualTo("Checking the plan. Approved: go ahead!");
            assertThat(completed.get("error").isNull()).isTrue();
            assertThat(lastQuery(api, conversationId)).isEqualTo("the plan");
        }
    }

    @Test
    void aBlockingTurnAnswersDifysPausedShapeAndTheConversationGoesOnAfterItsForm() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            ServiceApi api = server.api(server.importApp("ask.yml").get("api_key").asText());
            JsonNode first = json(api.postJson("/v1/chat-messages", turn("one", null, "blocking")));
            String conversationId = first.get("conversation_id").asText();
            answer(api, first.get("data").get("reasons").get(0).get("form_token").asText(), "reject", "no");
            assertThat(awaitEnd(api, conversationId, 0).get("answer").asText()).isEqualTo("Checking one. Rejected.");

            JsonNode body = json(api.postJson("/v1/chat-messages", turn("two", conversationId, "blocking")));

            assertThat(body.get("event").asText()).isEqualTo("workflow_paused");
            assertThat(body.get("id").asText()).isEqualTo(body.get("message_id").asText());
            assertThat(body.get("conversation_id").asText()).isEqualTo(conversationId);
            assertThat(body.get("mode").asText()).isEqualTo("advanced-chat");
            assertThat(body.get("answer").asText()).isEqualTo("Checking two. ");
            assertThat(body.get("metadata").get("usage").get("total_tokens").asLong()).isZero();
            JsonNode data = body.get("data");
            assertThat(data.get("message_id").asText()).isEqualTo(body.get("message_id").asText());
            assertThat(data.get("workflow_run_id").asText()).isEqualTo(body.get("workflow_run_id").asText());
            assertThat(data.get("status").asText()).isEqualTo("paused");
            assertThat(data.get("paused_nodes").get(0).asText()).isEqualTo("review");
            assertThat(data.get("reasons").get(0).get("TYPE").asText()).isEqualTo("human_input_required");
            assertThat(data.get("total_steps").asInt()).isPositive();
            assertThat(data.has("elapsed_time")).isTrue();

            answer(api, data.get("reasons").get(0).get("form_token").asText(), "approve", "sure");

            JsonNode second = awaitEnd(api, conversationId, 1);
            assertThat(second.get("id").asText()).isEqualTo(body.get("message_id").asText());
            assertThat(second.get("answer").asText()).isEqualTo("Checking two. Approved: sure!");
            assertThat(lastQuery(api, conversationId)).isEqualTo("two");
        }
    }

    private static Map<String, Object> turn(String query, String conversationId, String mode) {
        return conversationId == null
                ? Map.of("query", query, "inputs", Map.of(), "user", "ada", "response_mode", mode)
                : Map.of("query", query, "inputs", Map.of(), "user", "ada", "response_mode", mode,
                        "conversation_id", conversationId);
    }

    private static void answer(ServiceApi api, String token, String action, String note) {
        var answered = api.postJson("/v1/form/human_input/" + token, Map.of("action", action, "user", "ada",
                "inputs", Map.of("note", note)));
        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
    }

    private static String answerOf(List<JsonNode> frames) {
        StringBuilder answer = new StringBuilder();
        frames.stream().filter(frame -> frame.get("event").asText().equals("message"))
                .forEach(frame -> answer.append(frame.get("answer").asText()));
        return answer.toString();
    }

    private static JsonNode messages(ServiceApi api, String conversationId) {
        return json(api.get("/v1/messages?user=ada&conversation_id=" + conversationId)).get("data");
    }

    private static String lastQuery(ServiceApi api, String conversationId) {
        return json(api.get("/v1/conversations/" + conversationId + "/variables?user=ada")).get("data").get(0)
                .get("value").asText();
    }

    /** The conversation's message at that place once its turn has ended (no longer paused). */
    private static JsonNode awaitEnd(ServiceApi api, String conversationId, int index) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            JsonNode items = messages(api, conversationId);
            if (items.size() > index && items.get(index).get("status").asText().equals("normal")) {
                return items.get(index);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the turn's message did not end: " + messages(api, conversationId));
    }
}
