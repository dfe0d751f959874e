package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.OtlpCollector.Received;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.TraceSettings;
import dev.hexaflow.engine.EngineConfiguration;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenTelemetry traces from a real server to an OTLP/HTTP collector on loopback, read with the OTLP messages: a
 * run's span with its nodes' spans under it, a failed node's error, a model node's GenAI attributes with the
 * tokens the fake model reported, an incoming {@code traceparent} continued, an http-request node's call carrying
 * its span's, the run detail naming its trace, no secret in any attribute; and a server with tracing off sends
 * nothing and adds no header.
 */
class TracesHttpTest {

    private static final String MODEL_KEY = "sk-fake-model-key-0123";
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @TempDir
    static Path dataDir;
    static OtlpCollector collector;
    static FakeModelServer model;
    static FakeHttpTarget target;
    static TestServer server;
    static final List<String> secrets = new ArrayList<>();
    static final Map<String, String> appIds = new HashMap<>();
    static final Map<String, String> keys = new HashMap<>();

    @BeforeAll
    static void start() {
        collector = new OtlpCollector();
        model = new FakeModelServer();
        target = new FakeHttpTarget();
        server = TestServer.start(tracedConfig(dataDir, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint(),
                "OTEL_BSP_SCHEDULE_DELAY", "50")));
        secrets.addAll(List.of(TestServer.ADMIN_TOKEN, MODEL_KEY));
        for (String app : List.of("echo.yml", "fails.yml", "chatflow.yml", "traced-call.yml")) {
            JsonNode imported = server.importApp(app);
            appIds.put(app, imported.get("app_id").asText());
            keys.put(app, imported.get("api_key").asText());
            secrets.add(imported.get("api_key").asText());
        }
    }

    /** A server whose workflows may call loopback, with a model on loopback and the given OTEL_* settings. */
    private static Configuration tracedConfig(Path dir, Map<String, String> otel) {
        return TestServer.config(dir).withTraces(TraceSettings.fromEnvironment(otel))
                .withEngine(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model",
                        "HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")).withLlm(model.baseUrl(), MODEL_KEY));
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable part : new AutoCloseable[] {server, target, model, collector}) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                // Closing what the tests used.
            }
        }
    }

    @Test
    void aFailedRunsSpanHasItsNodesUnderItAndTheFailedNodeAndTheRunCarryTheErrorAndTheDetailNamesTheTrace()
            throws Exception {
        String runId = json(server.api(keys.get("fails.yml")).postJson("/v1/workflows/run",
                ServiceApi.run(Map.of(), "blocking", "bea"))).get("workflow_run_id").asText();

        Received run = runSpan(runId);
        List<Received> nodes = await(spans -> childrenOf(spans, run).size() == 2).stream()
                .filter(span -> span.parentSpanId().equals(run.spanId())).toList();

        assertThat(run.name()).isEqualTo("workflow run");
        assertThat(run.service()).isEqualTo("hexaflow");
        assertThat(run.attributes()).containsEntry("hexaflow.app.id", appIds.get("fails.yml"))
                .containsEntry("hexaflow.app.mode", "workflow").containsEntry("hexaflow.run.status", "failed")
                .containsKey("hexaflow.workflow.id");
        assertThat(run.error()).isTrue();
        assertThat(run.statusMessage()).contains("the printer is on fire");
        assertThat(nodes).extracting(span -> span.attributes().get("hexaflow.node.id"))
                .containsExactlyInAnyOrder("start", "burn");
        Received burn = nodes.stream().filter(span -> span.attributes().get("hexaflow.node.id").equals("burn"))
                .findFirst().orElseThrow();
        assertThat(burn.name()).isEqualTo("node code");
        assertThat(burn.attributes()).containsEntry("hexaflow.node.type", "code")
                .containsEntry("hexaflow.node.title", "Print the report")
                .containsEntry("hexaflow.node.status", "failed");
        assertThat(burn.error()).isTrue();
        assertThat(burn.statusMessage()).contains("the printer is on fire");
        assertThat(burn.startNanos()).isGreaterThanOrEqualTo(run.startNanos()).isLessThan(burn.endNanos());
        assertThat(burn.endNanos()).isLessThanOrEqualTo(run.endNanos());

        JsonNode detail = json(server.admin("GET", "/admin/runs/" + runId, null, null));
        assertThat(detail.get("trace_id").asText()).isEqualTo(run.traceId()).hasSize(32);
        assertNoSecretIn(collector.spans());
    }

    @Test
    void aModelNodesSpanCarriesTheGenAiAttributesWithTheTokensTheModelReported() throws Exception {
        model.answer(Script.text("Lisbon it is", 7, 3));
        JsonNode turn = json(server.api(keys.get("chatflow.yml")).postJson("/v1/chat-messages", Map.of("query",
                "What is the capital of Portugal?", "inputs", Map.of(), "user", "cid", "response_mode", "blocking")));
        assertThat(turn.get("answer").asText()).isEqualTo("Lisbon it is");

        Received llm = await(spans -> spans.stream().anyMatch(span -> "llm".equals(span.attributes()
                .get("hexaflow.node.type")))).stream().filter(span -> "llm".equals(span.attributes()
                .get("hexaflow.node.type"))).findFirst().orElseThrow();
        Received run = await(spans -> spans.stream().anyMatch(span -> span.spanId().equals(llm.parentSpanId())))
                .stream().filter(span -> span.spanId().equals(llm.parentSpanId())).findFirst().orElseThrow();

        assertThat(run.attributes()).containsEntry("hexaflow.app.id", appIds.get("chatflow.yml"))
                .containsEntry("hexaflow.app.mode", "advanced-chat");
        assertThat(llm.name()).isEqualTo("chat gpt-4o-mini");
        assertThat(llm.attributes()).containsEntry("gen_ai.operation.name", "chat")
                .containsEntry("gen_ai.request.model", "gpt-4o-mini")
                .containsEntry("gen_ai.provider.name", "openai").containsEntry("gen_ai.system", "openai")
                .containsEntry("gen_ai.usage.input_tokens", "7").containsEntry("gen_ai.usage.output_tokens", "3");
        assertNoSecretIn(collector.spans());
    }

    @Test
    void anIncomingTraceparentIsContinuedByTheRequestsSpanAndTheRunIsItsChild() throws Exception {
        String caller = "4bf92f3577b34da6a3ce929d0e0e4736";
        String callerSpan = "00f067aa0ba902b7";
        HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(URI.create(server.hexaflow.baseUrl()
                        + "/v1/workflows/run")).header("Authorization", "Bearer " + keys.get("echo.yml"))
                .header("Content-Type", "application/json").header("traceparent", "00-" + caller + "-" + callerSpan
                        + "-01")
                .POST(HttpRequest.BodyPublishers.ofString("{\"inputs\": {\"query\": \"hi\"}, \"response_mode\": "
                        + "\"blocking\", \"user\": \"ada\"}")).build(), HttpResponse.BodyHandlers.ofString());
        String runId = json(answer).get("workflow_run_id").asText();

        Received run = runSpan(runId);
        Received request = await(spans -> spans.stream().anyMatch(span -> span.spanId().equals(run.parentSpanId())))
                .stream().filter(span -> span.spanId().equals(run.parentSpanId())).findFirst().orElseThrow();

        assertThat(run.traceId()).isEqualTo(caller);
        assertThat(request.kind()).isEqualTo(SpanKind.SPAN_KIND_SERVER);
        assertThat(request.traceId()).isEqualTo(caller);
        assertThat(request.parentSpanId()).isEqualTo(callerSpan);
        assertThat(request.attributes()).containsEntry("http.request.method", "POST")
                .containsEntry("http.response.status_code", "200");
        assertThat(json(server.admin("GET", "/admin/runs/" + runId, null, null)).get("trace_id").asText())
                .isEqualTo(caller);
    }

    @Test
    void anHttpRequestNodesCallCarriesATraceparentOfTheRunsTraceNamingTheNodesSpan() throws Exception {
        String url = target.url("/traced/" + System.nanoTime());
        JsonNode answer = json(server.api(keys.get("traced-call.yml")).postJson("/v1/workflows/run",
                ServiceApi.run(Map.of("url", url), "blocking", "ada")));
        assertThat(answer.get("data").get("status").asText()).isEqualTo("succeeded");
        String runId = answer.get("workflow_run_id").asText();

        Received run = runSpan(runId);
        Received call = await(spans -> childrenOf(spans, run).stream().anyMatch(span -> "call".equals(
                span.attributes().get("hexaflow.node.id")))).stream().filter(span -> span.parentSpanId()
                .equals(run.spanId()) && "call".equals(span.attributes().get("hexaflow.node.id"))).findFirst()
                .orElseThrow();
        FakeHttpTarget.Seen seen = target.seen().stream().filter(request -> url.endsWith(request.uri()))
                .findFirst().orElseThrow();

        String[] traceparent = seen.headers().get("traceparent").split("-");
        assertThat(traceparent).hasSize(4);
        assertThat(traceparent[1]).isEqualTo(run.traceId());
        assertThat(traceparent[2]).isEqualTo(call.spanId());
        assertThat(Integer.parseInt(traceparent[3], 16) & 1).as("the sampled flag").isEqualTo(1);
    }

    @Test
    void aServerWithTracingOffSendsNothingAddsNoHeaderAndKeepsNoTraceId(@TempDir Path offDir) throws Exception {
        try (OtlpCollector unused = new OtlpCollector();
                TestServer off = TestServer.start(tracedConfig(offDir, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                        unused.endpoint(), "OTEL_BSP_SCHEDULE_DELAY", "50", "OTEL_SDK_DISABLED", "true")))) {
            String key = off.importApp("traced-call.yml").get("api_key").asText();
            String url = target.url("/untraced/" + System.nanoTime());

            JsonNode answer = json(off.api(key).postJson("/v1/workflows/run", ServiceApi.run(Map.of("url", url),
                    "blocking", "ada")));
            Thread.sleep(500);

            assertThat(answer.get("data").get("status").asText()).isEqualTo("succeeded");
            assertThat(target.seen().stream().filter(request -> url.endsWith(request.uri())).findFirst()
                    .orElseThrow().headers()).doesNotContainKey("traceparent");
            assertThat(json(off.admin("GET", "/admin/runs/" + answer.get("workflow_run_id").asText(), null, null))
                    .get("trace_id").isNull()).isTrue();
            assertThat(unused.requests()).isZero();
        }
    }

    private static Received runSpan(String runId) throws InterruptedException {
        return await(spans -> spans.stream().anyMatch(span -> runId.equals(span.attributes()
                .get("hexaflow.run.id")))).stream().filter(span -> runId.equals(span.attributes()
                .get("hexaflow.run.id"))).findFirst().orElseThrow();
    }

    private static List<Received> await(java.util.function.Predicate<List<Received>> done)
            throws InterruptedException {
        return collector.await(done);
    }

    private static List<Received> childrenOf(List<Received> spans, Received parent) {
        return spans.stream().filter(span -> span.parentSpanId().equals(parent.spanId())).toList();
    }

    private static void assertNoSecretIn(List<Received> spans) {
        for (Received span : spans) {
            for (String value : span.attributes().values()) {
                for (String secret : secrets) {
                    assertThat(value).as("attribute of span " + span.name()).doesNotContain(secret);
                }
            }
            for (String secret : secrets) {
                assertThat(span.statusMessage()).doesNotContain(secret);
            }
        }
    }
}
