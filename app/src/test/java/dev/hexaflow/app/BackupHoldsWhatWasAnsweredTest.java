package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup holds everything answered before it was asked for: chat turns (their conversation and message) and
 * campus key uses answered while clients keep going, each checked in the server restored from the archive. A
 * campus use is answered before its count is committed (within 10 ms): the backup commits what was answered
 * before it takes its snapshot.
 */
class BackupHoldsWhatWasAnsweredTest {

    @TempDir
    Path work;

    record Turn(String conversationId, String messageId, String answer) {
    }

    @Test
    void everyChatTurnAndCampusUseAnsweredBeforeTheBackupWasAskedForIsInIt() throws Exception {
        Path first = work.resolve("first");
        Path zip = work.resolve("backup.zip");
        List<Turn> answeredBefore = new ArrayList<>();
        AtomicLong campusCountBefore = new AtomicLong();
        String chatKey;
        String campusKey;
        try (FakeModelServer model = new FakeModelServer(); TestServer server = TestServer.start(
                TestServer.config(first).withEngine(EngineConfiguration.fromEnvironment(Map.of(
                        "HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")))) {
            model.answer(Script.text("kept answer", 1, 1));
            campusKey = server.campusKey();
            chatKey = server.importApp("chatflow.yml").get("api_key").asText();
            ServiceApi chat = server.api(chatKey);
            ConcurrentLinkedQueue<Turn> turns = new ConcurrentLinkedQueue<>();
            AtomicBoolean going = new AtomicBoolean(true);
            AtomicBoolean asked = new AtomicBoolean();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                String user = "user-" + c;
                Thread thread = new Thread(() -> {
                    while (going.get()) {
                        HttpResponse<String> sent = chat.postJson("/v1/chat-messages", ChatApiHttpTest.message(
                                "hello", null, user, "blocking"));
                        if (sent.statusCode() == 200 && !asked.get()) {
                            JsonNode body = json(sent);
                            turns.add(new Turn(body.get("conversation_id").asText(), body.get("message_id")
                                    .asText(), body.get("answer").asText()));
                        }
                    }
                });
                thread.start();
                clients.add(thread);
            }
            Thread campus = new Thread(() -> {
                while (going.get()) {
                    long requests = json(server.get("/v2/events/holidays.json?key=" + campusKey)).get("meta")
                            .get("requests").asLong();
                    if (!asked.get()) {
                        campusCountBefore.accumulateAndGet(requests, Math::max);
                    }
                }
            });
            campus.start();
            clients.add(campus);
            Thread.sleep(1500);

            // Whatever was answered before this moment must be in the backup.
            asked.set(true);
            answeredBefore.addAll(turns);
            HttpResponse<byte[]> backup = server.getBytesAsAdmin("/admin/backup");
            going.set(false);
            for (Thread thread : clients) {
                thread.join(10_000);
            }
            assertThat(backup.statusCode()).isEqualTo(200);
            Files.write(zip, backup.body());
        }
        assertThat(answeredBefore).as("turns were answered before the backup").hasSizeGreaterThan(3);

        Path second = work.resolve("second");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"restore", zip.toString(), "--data-dir", second.toString()}, Map.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        try (TestServer restored = TestServer.start(second)) {
            ServiceApi chat = restored.api(chatKey);
            for (Turn turn : answeredBefore) {
                String user = null;
                for (int c = 0; c < 3 && user == null; c++) {
                    HttpResponse<String> listed = chat.get("/v1/messages?user=user-" + c + "&conversation_id="
                            + turn.conversationId());
                    user = listed.statusCode() == 200 ? "user-" + c : null;
                    if (user != null) {
                        JsonNode message = json(listed).get("data").get(0);
                        assertThat(message.get("id").asText()).isEqualTo(turn.messageId());
                        assertThat(message.get("answer").asText()).isEqualTo(turn.answer());
                        assertThat(message.get("status").asText()).isEqualTo("normal");
                    }
                }
                assertThat(user).as("turn %s answered before the backup is in it", turn.messageId()).isNotNull();
            }
            long restoredCount = json(restored.get("/v2/events/holidays.json?key=" + campusKey)).get("meta")
                    .get("requests").asLong();
            assertThat(restoredCount - 1).as("every campus use answered before the backup is counted in it")
                    .isGreaterThanOrEqualTo(campusCountBefore.get());
        }
    }
}
