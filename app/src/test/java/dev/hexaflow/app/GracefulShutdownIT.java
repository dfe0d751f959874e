package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar sent SIGTERM with a blocking and a streaming run in flight against a slow model on loopback:
 * runs that end within the grace period are answered in full and their stream ends with workflow_finished; runs
 * that do not are stopped with a reason and their clients still get the end; new requests meanwhile get 503 in
 * their API's shape and both probes say draining; the process exits 0 with one line and no stack trace, and a
 * restart finds nothing running.
 */
class GracefulShutdownIT {

    private static final Path JAR = Path.of(System.getProperty("hexaflow.jar", "target/hexaflow.jar"));
    private static final String ADMIN = "graceful-admin-token-0123";
    static final String CHAT = """
            app: {name: Chat, mode: workflow}
            kind: app
            version: 0.5.0
            workflow:
              graph:
                nodes:
                  - {id: start, data: {type: start, title: Start, variables: [{variable: q, type: paragraph, required: true}]}}
                  - id: llm
                    data:
                      type: llm
                      title: LLM
                      model: {provider: openai, name: gpt-4o-mini, mode: chat, completion_params: {}}
                      prompt_template: [{role: user, text: '{{#start.q#}}'}]
                  - {id: end, data: {type: end, title: End, outputs: [{variable: answer, value_selector: [llm, text]}]}}
                edges:
                  - {source: start, target: llm}
                  - {source: llm, target: end}
            """;

    @TempDir
    Path work;

    private FakeModelServer model;

    @BeforeEach
    void startModel() {
        model = new FakeModelServer();
    }

    @AfterEach
    void stopModel() {
        model.close();
    }

    @Test
    void runsThatEndWithinTheGraceAreAnsweredInFullAndNewRequestsGet503() throws Exception {
        model.answer(Script.text("one two three four five six seven eight", 3, 8).pausing(300));
        Server server = Server.start(work, model, 20);
        CompletableFuture<HttpResponse<String>> blocking = server.blockingRun();
        CompletableFuture<String> stream = server.streamingRun();
        server.awaitModelCalls(model, 2);

        server.process.destroy();
        server.awaitProbe("/readyz", 503, "draining");

        HttpResponse<String> refused = server.api().postJson("/v1/workflows/run",
                ServiceApi.run(Map.of("q", "late"), "blocking", "late"));
        assertThat(refused.statusCode()).isEqualTo(503);
        JsonNode error = ServiceApi.json(refused);
        assertThat(error.get("code").asText()).isEqualTo("service_unavailable");
        assertThat(error.get("status").asInt()).isEqualTo(503);
        HttpResponse<String> campus = server.api().get("/v2/events/holidays.json");
        assertThat(campus.statusCode()).isEqualTo(503);
        assertThat(ServiceApi.json(campus).get("meta").get("status").asInt()).isEqualTo(503);
        assertThat(server.api().get("/health").statusCode()).isEqualTo(503);

        JsonNode answered = ServiceApi.json(blocking.get(30, TimeUnit.SECONDS));
        assertThat(answered.get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(answered.get("data").get("outputs").get("answer").asText())
                .isEqualTo("one two three four five six seven eight");
        String streamed = stream.get(30, TimeUnit.SECONDS);
        assertThat(streamed).contains("\"event\":\"workflow_finished\"").contains("\"status\":\"succeeded\"");

        assertThat(server.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(server.process.exitValue()).isZero();
        String log = Files.readString(server.log);
        assertThat(log).contains("Shutting down: 2 runs finished during the drain, 0 were stopped");
        assertThat(log).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void runsPastTheGraceAreStoppedWithAReasonTheirClientsGetTheEndAndNothingStaysRunning() throws Exception {
        model.answer(Script.text("a slow answer that takes far longer than the grace period allows", 3, 8)
                .pausing(1000));
        Server server = Server.start(work, model, 1);
        CompletableFuture<HttpResponse<String>> blocking = server.blockingRun();
        CompletableFuture<String> stream = server.streamingRun();
        server.awaitModelCalls(model, 2);

        long signalled = System.nanoTime();
        server.process.destroy();

        JsonNode answered = ServiceApi.json(blocking.get(30, TimeUnit.SECONDS));
        assertThat(answered.get("data").get("status").asText()).isEqualTo("stopped");
        assertThat(answered.get("data").get("error").asText()).contains("shutting down");
        String streamed = stream.get(30, TimeUnit.SECONDS);
        assertThat(streamed).contains("\"event\":\"workflow_finished\"").contains("\"status\":\"stopped\"");
        assertThat(server.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - signalled)).as("grace 1 s, then a stop")
                .isLessThan(8);
        assertThat(server.process.exitValue()).isZero();
        assertThat(Files.readString(server.log)).contains("0 runs finished during the drain, 2 were stopped")
                .doesNotContain("\tat ");

        Server again = Server.start(work, model, 1);
        try {
            assertThat(ServiceApi.json(again.api().get("/v1/workflows/logs?status=running")).get("total").asInt())
                    .isZero();
            assertThat(ServiceApi.json(again.api().get("/v1/workflows/logs?status=stopped")).get("total").asInt())
                    .isEqualTo(2);
            assertThat(again.api().get("/readyz").statusCode()).isEqualTo(200);
        } finally {
            again.process.destroy();
            again.process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aSecondSigtermEndsTheGraceAtOnceAndLeavesNothingRunning() throws Exception {
        model.answer(Script.text("an answer far too slow to wait for", 3, 8).pausing(2000));
        Server server = Server.start(work, model, 120);
        CompletableFuture<HttpResponse<String>> blocking = server.blockingRun();
        server.awaitModelCalls(model, 1);

        long signalled = System.nanoTime();
        server.process.destroy();
        server.awaitProbe("/readyz", 503, "draining");
        server.process.destroy();

        JsonNode answered = ServiceApi.json(blocking.get(30, TimeUnit.SECONDS));
        assertThat(answered.get("data").get("status").asText()).isEqualTo("stopped");
        assertThat(server.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - signalled)).as("not the 120 s grace")
                .isLessThan(10);
        assertThat(server.process.exitValue()).isZero();
    }

    /** The jar as a process on its data dir, with a model on loopback, and the chat app imported. */
    private static final class Server {
        final Process process;
        final Path log;
        final String baseUrl;
        final String key;

        private Server(Process process, Path log, String baseUrl, String key) {
            this.process = process;
            this.log = log;
            this.baseUrl = baseUrl;
            this.key = key;
        }

        static Server start(Path work, FakeModelServer model, int graceSeconds) throws Exception {
            Path data = work.resolve("data");
            Path log = work.resolve("server-" + System.nanoTime() + ".log");
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-jar", JAR.toString(), "--port", "0", "--data-dir", data.toString());
            builder.environment().keySet().removeIf(name -> name.startsWith("HEXAFLOW_"));
            builder.environment().put("HEXAFLOW_ADMIN_TOKEN", ADMIN);
            builder.environment().put("HEXAFLOW_LLM_BASE_URL", model.baseUrl().toString());
            builder.environment().put("HEXAFLOW_LLM_API_KEY", "sk-test");
            builder.environment().put("HEXAFLOW_SHUTDOWN_GRACE_SECONDS", Integer.toString(graceSeconds));
            builder.redirectErrorStream(true).redirectOutput(log.toFile());
            Process process = builder.start();
            String baseUrl = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (baseUrl == null && System.nanoTime() < deadline) {
                for (String line : Files.readAllLines(log)) {
                    if (line.startsWith("Hexaflow is ready on ")) {
                        baseUrl = line.substring("Hexaflow is ready on ".length()).strip();
                    }
                }
                Thread.sleep(50);
            }
            if (baseUrl == null) {
                process.destroyForcibly();
                throw new AssertionError("the server did not start: " + Files.readString(log));
            }
            ServiceApi admin = new ServiceApi(baseUrl, ADMIN);
            String key = null;
            JsonNode apps = ServiceApi.json(admin.get("/admin/apps"));
            for (JsonNode app : apps.get("data")) {
                if (app.get("name").asText().equals("Chat")) {
                    key = ServiceApi.json(admin.postJson("/admin/apps/" + app.get("app_id").asText() + "/keys", Map.of()))
                            .get("api_key").asText();
                }
            }
            if (key == null) {
                HttpResponse<String> imported = TestServer.exchange(java.net.http.HttpRequest.newBuilder(
                        URI.create(baseUrl + "/admin/apps")).header("Authorization", "Bearer " + ADMIN)
                        .header("Content-Type", "application/yaml")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(CHAT)),
                        HttpResponse.BodyHandlers.ofString());
                key = ServiceApi.json(imported).get("api_key").asText();
            }
            return new Server(process, log, baseUrl, key);
        }

        ServiceApi api() {
            return new ServiceApi(baseUrl, key);
        }

        CompletableFuture<HttpResponse<String>> blockingRun() {
            return CompletableFuture.supplyAsync(() -> api().postJson("/v1/workflows/run",
                    ServiceApi.run(Map.of("q", "blocking"), "blocking", "blocking-client")));
        }

        /** Reads a streaming run's response to its end, over a socket of its own. */
        CompletableFuture<String> streamingRun() {
            return CompletableFuture.supplyAsync(() -> {
                URI base = URI.create(baseUrl);
                byte[] body = "{\"inputs\":{\"q\":\"streaming\"},\"response_mode\":\"streaming\",\"user\":\"s\"}"
                        .getBytes(StandardCharsets.UTF_8);
                try (Socket socket = new Socket(base.getHost(), base.getPort())) {
                    socket.setSoTimeout(60_000);
                    socket.getOutputStream().write(("POST /v1/workflows/run HTTP/1.1\r\nHost: x\r\nAuthorization: "
                            + "Bearer " + key + "\r\nContent-Type: application/json\r\nContent-Length: "
                            + body.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    socket.getOutputStream().write(body);
                    InputStream in = socket.getInputStream();
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new IllegalStateException("the stream was cut: " + e, e);
                }
            });
        }

        void awaitModelCalls(FakeModelServer model, int calls) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (model.requests().size() < calls) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the model was called " + model.requests().size() + " times");
                }
                Thread.sleep(20);
            }
        }

        void awaitProbe(String path, int status, String word) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                HttpResponse<String> probe = new ServiceApi(baseUrl, null).get(path);
                if (probe.statusCode() == status && probe.body().contains(word)) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(path + " answered " + probe.statusCode() + " " + probe.body());
                }
                Thread.sleep(20);
            }
        }
    }
}
