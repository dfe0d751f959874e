package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.config.DatabaseServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real server on a PostgreSQL cluster of the test's own, stopped under it and started again: while the database
 * cannot be reached, requests that need it answer 503 with Retry-After in their API's own shape (Dify's
 * {@code {code, message, status}} on /v1, the campus envelope on /v2, the JSON error on /admin), each with one WARN
 * line naming what failed and no stack trace, never a 500; once the database is back, the same requests succeed
 * with nothing lost. A request's own SQL error stays its own (the classifier's test, {@code
 * PostgresUnreachableTest}).
 */
class PostgresOutageHttpTest {

    /** Longer than the pool's ten seconds' wait for a connection. */
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dataDir;

    @Test
    void whileTheDatabaseIsDownRequestsAnswer503WithRetryAfterInTheirApisShapeAndOnceItIsBackTheySucceed()
            throws Exception {
        try (PostgresCluster cluster = PostgresCluster.own();
                TestServer server = TestServer.start(TestServer.config(dataDir).withDatabase(new DatabaseServer(
                        cluster.url(cluster.createDatabase()), PostgresCluster.USER, PostgresCluster.PASSWORD)))) {
            String appKey = server.importApp("echo.yml").get("api_key").asText();
            String campusKey = server.campusKey();
            HttpResponse<String> ran = server.api(appKey).postJson("/v1/workflows/run", run(Map.of("query",
                    "kept"), "blocking", "ada"));
            String runId = TestServer.json(ran).get("workflow_run_id").asText();
            List<Request> requests = List.of(
                    new Request("/v1/workflows/run/" + runId, appKey),
                    new Request("/v1/workflows/logs", appKey),
                    new Request("/v2/resources/tutors.json?key=" + campusKey, null),
                    new Request("/admin/apps", TestServer.ADMIN_TOKEN));
            for (Request request : requests) {
                assertThat(get(server, request).statusCode()).as(request.path()).isEqualTo(200);
            }

            for (String mode : List.of("fast", "immediate")) {
                cluster.stopServer(mode);
                // All at once: each waits for the pool's connection timeout before its 503.
                Logged<Map<Request, HttpResponse<String>>> down = logged(() -> getAll(server, requests));
                for (Request request : requests) {
                    HttpResponse<String> answer = down.value().get(request);

                    assertThat(answer.statusCode()).as(mode + " " + request.path() + ": " + answer.body())
                            .isEqualTo(503);
                    assertThat(answer.headers().firstValue("Retry-After")).as(request.path()).hasValue("5");
                    JsonNode body = TestServer.json(answer);
                    if (request.path().startsWith("/v2/")) {
                        assertThat(body.get("meta").get("status").asInt()).isEqualTo(503);
                        assertThat(body.get("data").isEmpty()).isTrue();
                    } else {
                        assertThat(body.get("code").asText()).isEqualTo("service_unavailable");
                        assertThat(body.get("status").asInt()).isEqualTo(503);
                        assertThat(body.get("message").asText()).isEqualTo("The server cannot reach its database "
                                + "now. Please try again shortly.");
                    }
                    String path = request.path().replaceAll("\\?.*", "");
                    List<String> warnings = down.lines().stream().filter(line -> line.contains(" WARN ")
                            && line.contains(path)).toList();
                    assertThat(warnings).as(mode + " " + request.path() + ": " + down.lines()).singleElement()
                            .satisfies(line -> assertThat(line).contains("GET " + path + " answered 503: the "
                                    + "database cannot be reached (").doesNotContain(PostgresCluster.PASSWORD));
                    assertThat(down.lines()).as("no stack trace").noneMatch(line -> line.startsWith("\tat "));
                }

                cluster.startServer();
                for (Request request : requests) {
                    assertThat(get(server, request).statusCode()).as("back: " + request.path()).isEqualTo(200);
                }
                // Writes too: the first run after the restart is kept, through writers whose connections died.
                HttpResponse<String> again = server.api(appKey).postJson("/v1/workflows/run", run(Map.of("query",
                        mode), "blocking", "ada"));
                assertThat(again.statusCode()).as(mode + ": " + again.body()).isEqualTo(200);
                assertThat(TestServer.json(again).get("data").get("status").asText()).isEqualTo("succeeded");
                HttpResponse<String> keyed = server.admin("POST", "/admin/campus/keys", null, null);
                assertThat(keyed.statusCode()).as(mode + ": " + keyed.body()).isEqualTo(201);
            }
            HttpResponse<String> detail = get(server, requests.get(0));
            assertThat(TestServer.json(detail).get("outputs").get("answer").asText())
                    .isEqualTo("You said: kept (calm)");
        }
    }

    private record Request(String path, String token) {
    }

    private static HttpResponse<String> get(TestServer server, Request request) throws Exception {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(server.hexaflow.baseUrl() + request.path()))
                .timeout(Duration.ofSeconds(30)).GET();
        if (request.token() != null) {
            builder.header("Authorization", "Bearer " + request.token());
        }
        return CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Map<Request, HttpResponse<String>> getAll(TestServer server, List<Request> requests) {
        Map<Request, java.util.concurrent.CompletableFuture<HttpResponse<String>>> sent = new java.util.LinkedHashMap<>();
        java.util.concurrent.ExecutorService senders = java.util.concurrent.Executors.newFixedThreadPool(
                requests.size());
        for (Request request : requests) {
            sent.put(request, java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return get(server, request);
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            }, senders));
        }
        senders.shutdown();
        Map<Request, HttpResponse<String>> answers = new java.util.LinkedHashMap<>();
        sent.forEach((request, answer) -> answers.put(request, answer.join()));
        return answers;
    }

    /** What a call answered, and the lines the server logged meanwhile (Logback writes them to System.err). */
    private record Logged<T>(T value, List<String> lines) {
    }

    private static <T> Logged<T> logged(Callable<T> call) throws Exception {
        PrintStream before = System.err;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                before.write(b);
                synchronized (copy) {
                    copy.write(b);
                }
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                before.write(bytes, offset, length);
                synchronized (copy) {
                    copy.write(bytes, offset, length);
                }
            }
        }, true, StandardCharsets.UTF_8));
        try {
            T value = call.call();
            String text;
            synchronized (copy) {
                text = copy.toString(StandardCharsets.UTF_8);
            }
            return new Logged<>(value, Arrays.stream(text.split("\n")).filter(line -> !line.isBlank()).toList());
        } finally {
            System.setErr(before);
        }
    }
}
