package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chat turns go on while the model endpoint goes down and comes back, twice: every turn answered 200 is kept as it
 * was answered (its conversation, its message normal with the answer), every turn refused is refused with Dify's
 * code for a model failure and a message a person can read ("the connection was refused", "the connection closed
 * before an answer came", never "null"), and kept ended in error; no run is left running and nothing is answered
 * 500.
 */
class ModelOutageHttpTest {

    @TempDir
    Path dataDir;

    record Answered(int status, String conversationId, String messageId, String answer, String code,
            String message) {
    }

    @Test
    void turnsAnsweredWhileTheModelGoesDownAndUpAreKeptAsTheyWereAnswered() throws Exception {
        try (FakeModelServer model = new FakeModelServer(); Outage outage = new Outage(model.baseUrl());
                TestServer server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration
                        .fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model"))
                        .withLlm(outage.baseUrl(), "sk-t")))) {
            model.answer(Script.text("still here", 1, 1).pausing(20));
            ServiceApi chat = server.api(server.importApp("chatflow.yml").get("api_key").asText());
            ConcurrentLinkedQueue<Answered> answered = new ConcurrentLinkedQueue<>();
            AtomicBoolean going = new AtomicBoolean(true);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                String user = "user-" + c;
                Thread client = new Thread(() -> {
                    String conversation = null;
                    while (going.get()) {
                        HttpResponse<String> sent = chat.postJson("/v1/chat-messages", ChatApiHttpTest.message(
                                "are you there?", conversation, user, "blocking"));
                        JsonNode body = json(sent);
                        conversation = body.path("conversation_id").asText(conversation);
                        answered.add(new Answered(sent.statusCode(), body.path("conversation_id").asText(null),
                                body.path("message_id").asText(null), body.path("answer").asText(null),
                                body.path("code").asText(null), body.path("message").asText(null)));
                    }
                });
                client.start();
                clients.add(client);
            }
            for (int round = 0; round < 2; round++) {
                Thread.sleep(800);
                outage.down();
                Thread.sleep(800);
                outage.up();
            }
            Thread.sleep(800);
            going.set(false);
            for (Thread client : clients) {
                client.join(30_000);
            }

            assertThat(answered).extracting(Answered::status).doesNotContain(500).contains(200, 400);
            for (Answered refused : answered.stream().filter(a -> a.status() != 200).toList()) {
                assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
                assertThat(refused.code()).isEqualTo("completion_request_error");
                assertThat(refused.message()).startsWith("Run failed: [openai] Error: the model endpoint ")
                        .doesNotContain("null").containsAnyOf("the connection was refused",
                                "the connection closed before an answer came");
            }
            for (Answered ok : answered.stream().filter(a -> a.status() == 200).toList()) {
                String user = null;
                JsonNode kept = null;
                for (int c = 0; c < 4 && kept == null; c++) {
                    // A conversation may hold more turns than a page: read it back page by page, older each time.
                    String before = "";
                    for (boolean more = true; more && kept == null; ) {
                        HttpResponse<String> listed = chat.get("/v1/messages?limit=100&user=user-" + c
                                + "&conversation_id=" + ok.conversationId() + before);
                        if (listed.statusCode() != 200) {
                            break;
                        }
                        JsonNode page = json(listed);
                        for (JsonNode message : page.get("data")) {
                            if (message.get("id").asText().equals(ok.messageId())) {
                                kept = message;
                            }
                        }
                        user = "user-" + c;
                        more = page.get("has_more").asBoolean() && !page.get("data").isEmpty();
                        before = more ? "&first_id=" + page.get("data").get(0).get("id").asText() : before;
                    }
                }
                assertThat(user).as("the conversation of %s is kept", ok.messageId()).isNotNull();
                assertThat(kept).as("message %s is kept", ok.messageId()).isNotNull();
                assertThat(kept.get("status").asText()).isEqualTo("normal");
                assertThat(kept.get("answer").asText()).isEqualTo(ok.answer()).isEqualTo("still here");
            }
            assertThat(json(chat.get("/v1/workflows/logs?status=running")).get("total").asInt())
                    .as("no run is left running").isZero();
        }
    }

    /**
     * A loopback port in front of the model that can go down (new connections refused, open ones cut) and come up
     * again on the same port, as an endpoint restarted behind the same address does.
     */
    static final class Outage implements AutoCloseable {

        private final InetSocketAddress target;
        private final int port;
        private final List<Socket> open = new java.util.concurrent.CopyOnWriteArrayList<>();
        private volatile ServerSocket listening;

        Outage(URI model) throws IOException {
            this.target = new InetSocketAddress(model.getHost(), model.getPort());
            ServerSocket first = bind(0);
            this.port = first.getLocalPort();
            serve(first);
        }

        URI baseUrl() {
            return URI.create("http://127.0.0.1:" + port + "/v1");
        }

        private static ServerSocket bind(int port) throws IOException {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return socket;
        }

        private void serve(ServerSocket socket) {
            listening = socket;
            Thread accepting = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket client = socket.accept();
                        if (!register(socket, client)) {
                            return;
                        }
                        Socket upstream = new Socket(target.getAddress(), target.getPort());
                        if (!register(socket, upstream)) {
                            closeQuietly(client);
                            return;
                        }
                        pump(client, upstream);
                        pump(upstream, client);
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            accepting.setDaemon(true);
            accepting.start();
        }

        private void pump(Socket from, Socket to) {
            Thread pumping = new Thread(() -> {
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    in.transferTo(out);
                } catch (IOException cut) {
                    // The outage cut it, or its other end closed.
                } finally {
                    closeQuietly(from);
                    closeQuietly(to);
                }
            });
            pumping.setDaemon(true);
            pumping.start();
        }

        /**
         * Keeps a connection to cut at the next outage, unless the outage began while it was being accepted (a
         * background call, a chat's title, can be): then it is cut now, or it would outlive the outage in the
         * client's pool.
         */
        private synchronized boolean register(ServerSocket from, Socket connection) {
            if (from.isClosed()) {
                closeQuietly(connection);
                return false;
            }
            open.add(connection);
            return true;
        }

        synchronized void down() throws IOException {
            listening.close();
            open.forEach(Outage::closeQuietly);
            open.clear();
        }

        void up() throws IOException {
            serve(bind(port));
        }

        private static void closeQuietly(Socket socket) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closed already.
            }
        }

        @Override
        public void close() throws IOException {
            down();
        }
    }
}
