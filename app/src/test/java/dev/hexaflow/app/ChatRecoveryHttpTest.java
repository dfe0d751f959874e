package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chat's messages across a restart. A turn a crash cut off: the next start ends its message in error, with its
 * run's error, and the next turn's memory leaves it out; the crash is the state a kill -9 mid-answer leaves in the
 * database (the run running, the message normal with no answer), written into a stopped server's data directory.
 * A message's files: their URLs are signed as they are listed, so they serve after a restart (a new key).
 */
class ChatRecoveryHttpTest {

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;

    @BeforeEach
    void startModel() {
        model = new FakeModelServer();
        model.answer(Script.text("Hello there friend", 7, 3));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        model.close();
    }

    @Test
    void aTurnCutOffByACrashEndsInErrorAtTheNextStartAndIsLeftOutOfTheNextTurnsMemory() {
        server = start();
        String key = server.importApp("chatflow.yml").get("api_key").asText();
        JsonNode first = json(server.api(key).postJson("/v1/chat-messages",
                ChatApiHttpTest.message("my name is Ada", null, "ada", "blocking")));
        String conversationId = first.get("conversation_id").asText();
        String messageId = first.get("message_id").asText();
        server.close();
        server = null;
        cutOffMidAnswer(messageId);

        server = start();
        ServiceApi chat = server.api(key);
        JsonNode listed = json(chat.get("/v1/messages?user=ada&conversation_id=" + conversationId)).get("data");

        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("status").asText()).isEqualTo("error");
        assertThat(listed.get(0).get("error").asText()).isEqualTo("The server stopped during the run.");
        assertThat(listed.get(0).get("answer").asText()).isEmpty();

        model.requests().clear();
        json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message("what is my name?", conversationId, "ada",
                "blocking")));
        JsonNode sent = model.requests().get(0).get("messages");
        assertThat(sent).extracting(m -> m.get("role").asText() + ": " + m.get("content").asText())
                .containsExactly("system: The previous query was my name is Ada.", "user: what is my name?");
    }

    @Test
    void aMessagesFilesAreSignedAsTheyAreListedSoTheirUrlsServeAfterARestart() {
        server = start();
        String key = server.importApp("chatflow-files.yml").get("api_key").asText();
        byte[] content = "the minutes of the meeting".getBytes(StandardCharsets.UTF_8);
        String uploadId = server.api(key).upload("uma", "minutes.txt", "text/plain", content);
        Map<String, Object> body = ChatApiHttpTest.message("here is my file", null, "uma", "blocking");
        body.put("files", List.of(Map.of("type", "document", "transfer_method", "local_file", "upload_file_id",
                uploadId)));
        String conversationId = json(server.api(key).postJson("/v1/chat-messages", body)).get("conversation_id")
                .asText();
        server.close();
        server = null;

        server = start();
        JsonNode files = json(server.api(key).get("/v1/messages?user=uma&conversation_id=" + conversationId))
                .get("data").get(0).get("message_files");

        assertThat(files).extracting(file -> file.get("belongs_to").asText()).containsExactly("user", "assistant");
        for (JsonNode file : files) {
            HttpResponse<byte[]> preview = server.getBytes(file.get("url").asText());
            assertThat(preview.statusCode()).as(file.get("url").asText()).isEqualTo(200);
            assertThat(preview.body()).isEqualTo(content);
        }
    }

    private TestServer start() {
        return TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
    }

    /** What a kill -9 while the model answered leaves: the run still running, the message with no answer yet. */
    private void cutOffMidAnswer(String messageId) {
        try (Storage storage = Storage.connect(dataDir)) {
            storage.migrate();
            storage.jdbi().useHandle(handle -> {
                // The run counts as running again, as it did before its end was kept.
                handle.createUpdate("UPDATE run_count SET n = n - 1 WHERE status = 'succeeded' AND app_id = "
                        + "(SELECT app_id FROM message WHERE id = :id)").bind("id", messageId).execute();
                handle.createUpdate("MERGE INTO run_count (app_id, status, n) KEY (app_id, status) SELECT app_id, "
                        + "'running', 1 FROM message WHERE id = :id").bind("id", messageId).execute();
                handle.createUpdate("UPDATE workflow_run SET status = 'running', error = NULL, finished_at = NULL "
                        + "WHERE id = (SELECT workflow_run_id FROM message WHERE id = :id)").bind("id", messageId)
                        .execute();
                handle.createUpdate("UPDATE message SET answer = '', status = 'normal', error = NULL WHERE id = :id")
                        .bind("id", messageId).execute();
            });
        }
    }
}
