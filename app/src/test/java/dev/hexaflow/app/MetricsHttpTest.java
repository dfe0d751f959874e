package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.PrometheusText.Sample;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.MetricsSettings;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} on a real server, read by Prometheus' own parser: runs that succeed and fail, a chat turn
 * whose model (a fake OpenAI-compatible server on loopback) reports its tokens, campus calls and a bad request
 * are counted as they happened, labels hold route templates and never a secret, a scrape needs the metrics token,
 * and a server with metrics off answers 404.
 */
class MetricsHttpTest {

    private static final String METRICS_TOKEN = "metrics-token-0123456789abcdef";

    @TempDir
    static Path dataDir;
    static FakeModelServer model;
    static TestServer server;
    static String python;
    static final List<String> secrets = new ArrayList<>();
    static final Map<String, String> appIds = new HashMap<>();
    static final Map<String, String> keys = new HashMap<>();

    @BeforeAll
    static void start() {
        python = PrometheusText.requireParser();
        model = new FakeModelServer();
        model.answer(Script.text("Lisbon it is", 7, 3));
        server = TestServer.start(TestServer.config(dataDir).withMetrics(MetricsSettings.on(METRICS_TOKEN))
                .withEngine(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model"))
                        .withLlm(model.baseUrl(), "sk-fake-model-key-0123")));
        secrets.addAll(List.of(METRICS_TOKEN, TestServer.ADMIN_TOKEN, "sk-fake-model-key-0123"));
        for (String app : List.of("echo.yml", "fails.yml", "chatflow.yml")) {
            JsonNode imported = server.importApp(app);
            appIds.put(app, imported.get("app_id").asText());
            keys.put(app, imported.get("api_key").asText());
            secrets.add(imported.get("api_key").asText());
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void runsTokensCampusCallsAndRequestsAreCountedAsTheyHappenedUnderTemplatesAndNoSecret() {
        List<String> runIds = new ArrayList<>();
        ServiceApi echo = server.api(keys.get("echo.yml"));
        for (int i = 0; i < 3; i++) {
            runIds.add(json(echo.postJson("/v1/workflows/run", ServiceApi.run(Map.of("query", "hi " + i),
                    "blocking", "ada"))).get("workflow_run_id").asText());
        }
        ServiceApi fails = server.api(keys.get("fails.yml"));
        for (int i = 0; i < 2; i++) {
            JsonNode failed = json(fails.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking", "bea")));
            assertThat(failed.get("data").get("status").asText()).isEqualTo("failed");
            runIds.add(failed.get("workflow_run_id").asText());
        }
        JsonNode turn = json(server.api(keys.get("chatflow.yml")).postJson("/v1/chat-messages", Map.of("query",
                "What is the capital of Portugal?", "inputs", Map.of(), "user", "cid", "response_mode", "blocking")));
        assertThat(turn.get("answer").asText()).isEqualTo("Lisbon it is");
        String campusKey = server.issueCampusKey();
        secrets.add(campusKey);
        assertThat(server.get("/v2/events/holidays.json").statusCode()).isEqualTo(200);
        assertThat(server.get("/v2/resources/tutors.json?key=" + campusKey).statusCode()).isIn(200, 204);
        assertThat(server.get("/v2/nowhere/at-all.json").statusCode()).isEqualTo(501);
        assertThat(echo.postRaw("/v1/workflows/run", "application/json", "{not json".getBytes()).statusCode())
                .isEqualTo(400);

        List<Sample> samples = scrapeUntil(all -> all.stream().anyMatch(sample -> sample.name()
                .equals("hexaflow_http_requests_total") && sample.labels().get("route").equals("/v1/workflows/run")
                && sample.labels().get("status").equals("400")));

        String echoId = appIds.get("echo.yml");
        String failsId = appIds.get("fails.yml");
        String chatId = appIds.get("chatflow.yml");
        assertThat(value(samples, "hexaflow_runs_started_total", Map.of("app", echoId))).isEqualTo(3);
        assertThat(value(samples, "hexaflow_runs_started_total", Map.of("app", failsId))).isEqualTo(2);
        assertThat(value(samples, "hexaflow_runs_started_total", Map.of("app", chatId))).isEqualTo(1);
        assertThat(value(samples, "hexaflow_runs_ended_total", Map.of("app", echoId, "status", "succeeded")))
                .isEqualTo(3);
        assertThat(value(samples, "hexaflow_runs_ended_total", Map.of("app", failsId, "status", "failed")))
                .isEqualTo(2);
        assertThat(value(samples, "hexaflow_runs_ended_total", Map.of("app", failsId, "status", "succeeded")))
                .isZero();
        assertThat(value(samples, "hexaflow_run_duration_seconds_count", Map.of("app", echoId))).isEqualTo(3);
        assertThat(value(samples, "hexaflow_run_duration_seconds_bucket", Map.of("app", echoId, "le", "+Inf")))
                .isEqualTo(3);
        assertThat(value(samples, "hexaflow_node_duration_seconds_count", Map.of("type", "code"))).isEqualTo(2);
        assertThat(value(samples, "hexaflow_node_duration_seconds_count", Map.of("type", "template-transform")))
                .isEqualTo(3);
        assertThat(value(samples, "hexaflow_runs_active", Map.of())).isZero();

        Map<String, String> gpt = Map.of("app", chatId, "model", "gpt-4o-mini");
        assertThat(value(samples, "hexaflow_model_tokens_total", with(gpt, "kind", "prompt"))).isEqualTo(7);
        assertThat(value(samples, "hexaflow_model_tokens_total", with(gpt, "kind", "completion"))).isEqualTo(3);
        assertThat(value(samples, "hexaflow_model_tokens_total", with(gpt, "kind", "total"))).isEqualTo(10);
        assertThat(value(samples, "hexaflow_model_price_total", gpt)).isZero();

        assertThat(value(samples, "hexaflow_campus_calls_total", Map.of("method", "holidays", "outcome", "ok")))
                .isEqualTo(1);
        assertThat(value(samples, "hexaflow_campus_calls_total", Map.of("method", "unknown",
                "outcome", "invalid_method"))).isEqualTo(1);
        assertThat(value(samples, "hexaflow_http_requests_total", Map.of("method", "POST",
                "route", "/v1/workflows/run", "status", "200"))).isEqualTo(5);
        assertThat(value(samples, "hexaflow_http_requests_total", Map.of("method", "GET",
                "route", "/v2/{service}/{file}", "status", "200"))).isGreaterThanOrEqualTo(1);
        assertThat(value(samples, "hexaflow_webhook_deliveries_total", Map.of("outcome", "delivered"))).isZero();
        assertThat(value(samples, "hexaflow_store_up", Map.of())).isEqualTo(1);
        assertThat(value(samples, "hexaflow_store_free_bytes", Map.of())).isPositive();
        assertThat(value(samples, "hexaflow_sse_streams_active", Map.of())).isZero();
        assertThat(value(samples, "hexaflow_tasks_in_flight", Map.of())).isZero();
        assertThat(value(samples, "hexaflow_run_writer_backlog", Map.of())).isGreaterThanOrEqualTo(0);

        List<String> labelValues = samples.stream().flatMap(sample -> sample.labels().values().stream()).toList();
        for (String secret : secrets) {
            assertThat(labelValues).as("label values").noneMatch(label -> label.contains(secret));
        }
        for (String runId : runIds) {
            assertThat(labelValues).as("label values").noneMatch(label -> label.contains(runId));
        }
        assertThat(labelValues).noneMatch(label -> label.contains("holidays.json") || label.contains("at-all"));
    }

    @Test
    void aScrapeWithoutTheMetricsTokenIsRefusedInTheAdminApisShape() {
        HttpResponse<String> none = server.send("GET", "/metrics", null, null, null);
        HttpResponse<String> admins = server.send("GET", "/metrics", null, null, TestServer.ADMIN_TOKEN);

        for (HttpResponse<String> refused : List.of(none, admins)) {
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"hexaflow-metrics\"");
            JsonNode body = json(refused);
            assertThat(body.get("code").asText()).isEqualTo("unauthorized");
            assertThat(body.get("status").asInt()).isEqualTo(401);
        }
    }

    @Test
    void aServerWithMetricsOffAnswersNotFoundAsForAnyUnknownRoute(@TempDir Path otherDir) {
        try (TestServer off = TestServer.start(otherDir)) {
            HttpResponse<String> metrics = off.send("GET", "/metrics", null, null, METRICS_TOKEN);
            HttpResponse<String> unknown = off.get("/no-such-route");

            assertThat(metrics.statusCode()).isEqualTo(404);
            assertThat(metrics.body()).isEqualTo(unknown.body());
        }
    }

    /** Scrapes until {@code ready} holds (a request is counted once its answer is sent), thirty seconds at most. */
    private static List<Sample> scrapeUntil(Predicate<List<Sample>> ready) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            HttpResponse<String> scrape = server.send("GET", "/metrics", null, null, METRICS_TOKEN);
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                    .startsWith("text/plain; version=0.0.4"));
            List<Sample> samples = PrometheusText.parse(python, scrape.body());
            if (ready.test(samples) || System.nanoTime() > deadline) {
                return samples;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The one sample named {@code name} whose labels include {@code labels}; fails if there is none. */
    private static double value(List<Sample> samples, String name, Map<String, String> labels) {
        List<Sample> found = samples.stream().filter(sample -> sample.name().equals(name))
                .filter(sample -> sample.labels().entrySet().containsAll(labels.entrySet())).toList();
        assertThat(found).as(name + labels).hasSize(1);
        return found.get(0).value();
    }

    private static Map<String, String> with(Map<String, String> labels, String name, String value) {
        Map<String, String> more = new HashMap<>(labels);
        more.put(name, value);
        return more;
    }
}
