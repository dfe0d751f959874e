package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client is answered is what the store keeps. A chat turn that waits on its model while the store fails a
 * write of someone else's and recovers is answered as it ends, and kept so: the store's recovery fails the runs
 * it was left with, not those still going on here. A turn whose message is not in the store by its end (its
 * start was lost) is not answered as a success: its end is refused with Dify's 500, and logged.
 */
class AnsweredIsKeptHttpTest {

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;
    ServiceApi chat;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        chat = server.api(server.importApp("chatflow.yml").get("api_key").asText());
    }

    @AfterEach
    void stop() {
        server.close();
        model.close();
    }

    /** Sends a blocking turn whose model takes about 4.5 s, and waits until the model has been asked. */
    private CompletableFuture<HttpResponse<String>> slowTurn(String conversationId) throws InterruptedException {
        model.answer(Script.text("a slow careful answer", 1, 1).pausing(1200));
        int asked = model.requests().size();
        CompletableFuture<HttpResponse<String>> turn = CompletableFuture.supplyAsync(() -> chat.postJson(
                "/v1/chat-messages", ChatApiHttpTest.message("take your time", conversationId, "ada", "blocking")));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (model.requests().size() == asked) {
            assertThat(System.nanoTime()).as("the model was asked").isLessThan(deadline);
            Thread.sleep(20);
        }
        Thread.sleep(300); // the node's start is committed by now
        return turn;
    }

    private String kept(String sql, String id) throws Exception {
        try (Connection db = TestServer.database(dataDir); PreparedStatement query = db.prepareStatement(sql)) {
            query.setString(1, id);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    @Test
    void aTurnWaitingOnItsModelWhileTheStoreFailedAndRecoveredIsKeptAsItWasAnswered() throws Exception {
        ServiceApi other = server.api(server.importApp("echo.yml").get("api_key").asText());
        CompletableFuture<HttpResponse<String>> turn = slowTurn(null);

        try (Connection db = TestServer.database(dataDir)) {
            db.createStatement().execute("SHUTDOWN IMMEDIATELY");
        } catch (java.sql.SQLException closedWithIt) {
            // SHUTDOWN closes the connection it came through as well.
        }
        HttpResponse<String> refused = other.postJson("/v1/workflows/run", ServiceApi.run(Map.of("query", "hi"),
                "blocking", "bob"));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.get("/readyz").statusCode() != 200) {
            assertThat(System.nanoTime()).as("the store recovered").isLessThan(deadline);
            Thread.sleep(50);
        }
        assertThat(turn).as("the turn still waits on its model").isNotDone();

        HttpResponse<String> answered = turn.get(30, TimeUnit.SECONDS);

        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
        JsonNode body = json(answered);
        assertThat(body.get("answer").asText()).isEqualTo("a slow careful answer");
        String messageId = body.get("message_id").asText();
        String runId = kept("SELECT workflow_run_id FROM message WHERE id = ?", messageId);
        assertThat(kept("SELECT status FROM workflow_run WHERE id = ?", runId)).isEqualTo("succeeded");
        assertThat(kept("SELECT status FROM message WHERE id = ?", messageId)).isEqualTo("normal");
        assertThat(kept("SELECT answer FROM message WHERE id = ?", messageId)).isEqualTo("a slow careful answer");
    }

    @Test
    void aTurnWhoseMessageIsNotInTheStoreByItsEndIsNotAnsweredAsASuccess() throws Exception {
        model.answer(Script.text("first", 1, 1));
        JsonNode first = json(chat.postJson("/v1/chat-messages", ChatApiHttpTest.message("hello", null, "ada",
                "blocking")));
        String conversationId = first.get("conversation_id").asText();
        CompletableFuture<HttpResponse<String>> turn = slowTurn(conversationId);
        String lost;
        try (Connection db = TestServer.database(dataDir); PreparedStatement newest = db.prepareStatement(
                "SELECT id FROM message WHERE conversation_id = ? AND id <> ? ORDER BY created_at DESC, id DESC")) {
            newest.setString(1, conversationId);
            newest.setString(2, first.get("message_id").asText());
            try (ResultSet row = newest.executeQuery()) {
                assertThat(row.next()).as("the turn's message was kept at its start").isTrue();
                lost = row.getString(1);
            }
            db.createStatement().execute("DELETE FROM message WHERE id = '" + lost + "'");
        }

        HttpResponse<String> answered = turn.get(30, TimeUnit.SECONDS);

        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(500);
        assertThat(json(answered).get("code").asText()).isEqualTo("internal_server_error");
        JsonNode listed = json(chat.get("/v1/messages?user=ada&conversation_id=" + conversationId)).get("data");
        assertThat(listed).extracting(message -> message.get("id").asText())
                .containsExactly(first.get("message_id").asText());
    }
}
