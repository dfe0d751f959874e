package dev.hexaflow.app;

import dev.hexaflow.engine.EngineConfiguration;
import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a visitor of an app's public page can do with Jinja2 in its inputs, over real HTTP with the page's token: an
 * input is printed as text, never rendered, in template-transform and in llm prompts; and an author's runaway
 * template is ended by stop, by the run's time limit, by its loop limit and by its output cap.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TemplateInjectionHttpTest {

    /** The web user the visitor's page keeps. */
    private static final String VISITOR = "web-0123456789abcdef0123456789abcdef";

    static final String SECRET = "hf-secret-5a1e9c";
    static final String NESTED_LOOPS = "{% for a in range(1000) %}{% for b in range(1000) %}"
            + "{% for c in range(1000) %}{% for d in range(1000) %}{% endfor %}{% endfor %}{% endfor %}{% endfor %}";

    @TempDir
    static Path defaultsDir;
    @TempDir
    static Path unboundedDir;
    static FakeModelServer model;
    /** The server as it ships: default limits. */
    static TestServer defaults;
    /** Loops unlimited and a 2 s run limit, so that only stop or the time limit can end a runaway render. */
    static TestServer unbounded;

    @BeforeAll
    static void start() {
        model = new FakeModelServer();
        defaults = TestServer.start(TestServer.config(defaultsDir).withEngine(EngineConfiguration
                .fromEnvironment(Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        unbounded = TestServer.start(TestServer.config(unboundedDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_MAX_RUN_SECONDS", "2", "HEXAFLOW_TEMPLATE_MAX_LOOPS",
                        String.valueOf(Integer.MAX_VALUE)))));
    }

    @AfterAll
    static void stop() {
        defaults.close();
        unbounded.close();
        model.close();
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** An app whose template-transform renders {@code template} with x from the page and token from the env. */
    private static JsonNode templateApp(TestServer server, String template) {
        String dsl = """
                app: {name: Greeter, mode: workflow}
                kind: app
                version: 0.5.0
                workflow:
                  environment_variables:
                    - {name: API_TOKEN, value: %s, value_type: secret}
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: [{variable: x, label: X, type: paragraph, required: false, max_length: 10000}]}}
                      - id: t
                        data:
                          type: template-transform
                          title: T
                          template: %s
                          variables:
                            - {variable: x, value_selector: [start, x]}
                            - {variable: token, value_selector: [env, API_TOKEN]}
                      - {id: end, data: {type: end, title: End, outputs: [{variable: out, value_selector: [t, output]}]}}
                    edges:
                      - {source: start, target: t}
                      - {source: t, target: end}
                """.formatted(SECRET, quoted(template));
        HttpResponse<String> imported = server.admin("POST", "/admin/apps", "application/yaml", dsl);
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        return TestServer.json(imported);
    }

    private static ServiceApi page(TestServer server, JsonNode app) {
        return server.api(server.pageToken(app.get("site_code").asText(), VISITOR).token());
    }

    private static JsonNode runBlocking(ServiceApi page, String x) {
        HttpResponse<String> ran = page.postJson("/v1/workflows/run", run(Map.of("x", x), "blocking", VISITOR));
        assertThat(ran.statusCode()).as(ran.body()).isEqualTo(200);
        return json(ran).get("data");
    }

    /** Whether some thread of this process is inside Jinjava now: a render that was not ended. */
    private static boolean aRenderIsRunning() {
        return Thread.getAllStackTraces().values().stream().anyMatch(stack -> Arrays.stream(stack)
                .anyMatch(frame -> frame.getClassName().startsWith("com.hubspot.jinjava")));
    }

    private static void awaitNoRender(long millis) throws InterruptedException {
        long until = System.currentTimeMillis() + millis;
        while (aRenderIsRunning() && System.currentTimeMillis() < until) {
            Thread.sleep(20);
        }
        assertThat(aRenderIsRunning()).as("a render still runs " + millis + " ms later").isFalse();
    }

    @Test
    void anInputThatLooksLikeATemplateComesBackAsText() {
        ServiceApi page = page(defaults, templateApp(defaults, "Hello {{ x }}!"));

        JsonNode data = runBlocking(page, "{{ 7*7 }}");

        assertThat(data.get("status").asText()).isEqualTo("succeeded");
        assertThat(data.at("/outputs/out").asText()).isEqualTo("Hello {{ 7*7 }}!");
    }

    @Test
    void anInputCannotPrintAValueTheAuthorKeptHidden() {
        ServiceApi page = page(defaults, templateApp(defaults, "{% if false %}{{ token }}{% endif %}Hello {{ x }}!"));

        JsonNode data = runBlocking(page, "{{ token }}");

        assertThat(data.at("/outputs/out").asText()).isEqualTo("Hello {{ token }}!");
        assertThat(data.toString()).doesNotContain(SECRET);
    }

    @Test
    void aNestedLoopInAnInputIsText() {
        ServiceApi page = page(defaults, templateApp(defaults, "Hello {{ x }}!"));

        long started = System.nanoTime();
        JsonNode data = runBlocking(page, NESTED_LOOPS);

        assertThat(data.at("/outputs/out").asText()).isEqualTo("Hello " + NESTED_LOOPS + "!");
        assertThat((System.nanoTime() - started) / 1e9).isLessThan(2.0);
    }

    @Test
    void jinja2AndBasicPromptsOfAnLlmSendAnInputAsText() {
        model.answer(FakeModelServer.Script.text("ok", 1, 1));
        String dsl = """
                app: {name: Asker, mode: workflow}
                kind: app
                version: 0.5.0
                workflow:
                  environment_variables:
                    - {name: API_TOKEN, value: %s, value_type: secret}
                  graph:
                    nodes:
                      - {id: start, data: {type: start, title: Start, variables: [{variable: x, label: X, type: paragraph, required: false, max_length: 10000}]}}
                      - id: llm
                        data:
                          type: llm
                          title: LLM
                          model: {provider: openai, name: gpt-4o-mini, mode: chat, completion_params: {}}
                          context: {enabled: true, variable_selector: [start, x]}
                          prompt_template:
                            - {role: system, edition_type: jinja2, text: '', jinja2_text: '{%% if false %%}{{ token }}{%% endif %%}Answer {{ x }}'}
                            - {role: user, text: 'Context: {{#context#}}'}
                          prompt_config:
                            jinja2_variables:
                              - {variable: x, value_selector: [start, x]}
                              - {variable: token, value_selector: [env, API_TOKEN]}
                      - {id: end, data: {type: end, title: End, outputs: [{variable: out, value_selector: [llm, text]}]}}
                    edges:
                      - {source: start, target: llm}
                      - {source: llm, target: end}
                """.formatted(SECRET);
        HttpResponse<String> imported = defaults.admin("POST", "/admin/apps", "application/yaml", dsl);
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        int before = model.requests().size();

        JsonNode data = runBlocking(page(defaults, TestServer.json(imported)), "{{ token }}{{#env.API_TOKEN#}}");

        assertThat(data.get("status").asText()).as(data.toString()).isEqualTo("succeeded");
        JsonNode messages = model.requests().get(before).get("messages");
        assertThat(messages.get(0).get("content").asText()).isEqualTo("Answer {{ token }}{{#env.API_TOKEN#}}");
        assertThat(messages.get(1).get("content").asText()).isEqualTo("Context: {{ token }}{{#env.API_TOKEN#}}");
        assertThat(messages.toString()).doesNotContain(SECRET);
    }

    @Test
    void aStopEndsARunawayRenderWithinASecond() throws Exception {
        ServiceApi page = page(unbounded, templateApp(unbounded, NESTED_LOOPS + "{{ x }}"));
        HttpResponse<InputStream> response = page.postStreaming("/v1/workflows/run",
                run(Map.of("x", "-"), "streaming", VISITOR));
        BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        JsonNode first = TestServer.json(lines.readLine().substring(6));
        Thread.sleep(300);
        assertThat(aRenderIsRunning()).isTrue();

        long asked = System.nanoTime();
        HttpResponse<String> stop = page.postJson("/v1/workflows/tasks/" + first.get("task_id").asText() + "/stop",
                Map.of("user", VISITOR));
        double answered = (System.nanoTime() - asked) / 1e9;
        String rest = lines.lines().collect(Collectors.joining("\n"));
        double seconds = (System.nanoTime() - asked) / 1e9;

        assertThat(stop.body()).isEqualTo("{\"result\":\"success\"}");
        assertThat(seconds).as("the stop answered after %.3f s, the stream ended after %.3f s", answered, seconds)
                .isLessThan(1.0);
        assertThat(rest).contains("\"event\":\"workflow_finished\"").contains("\"status\":\"stopped\"");
        awaitNoRender(1000 - (long) (seconds * 1000));
    }

    @Test
    void theRunsTimeLimitEndsARunawayRender() throws Exception {
        ServiceApi page = page(unbounded, templateApp(unbounded, NESTED_LOOPS + "{{ x }}"));

        long started = System.nanoTime();
        JsonNode data = runBlocking(page, "-");
        double seconds = (System.nanoTime() - started) / 1e9;

        assertThat(data.get("status").asText()).isEqualTo("failed");
        assertThat(data.get("error").asText()).isEqualTo("Max execution time 2s reached.");
        assertThat(seconds).isLessThan(3.0);
        awaitNoRender(1000);
    }

    @Test
    void tooManyLoopIterationsFailTheNodeNamingTheLimit() throws Exception {
        ServiceApi page = page(defaults, templateApp(defaults, NESTED_LOOPS + "{{ x }}"));

        long started = System.nanoTime();
        JsonNode data = runBlocking(page, "-");

        assertThat(data.get("status").asText()).isEqualTo("failed");
        assertThat(data.get("error").asText()).isEqualTo("The template ran more than 1000000 loop iterations");
        assertThat((System.nanoTime() - started) / 1e9).isLessThan(5.0);
        awaitNoRender(1000);
    }

    @Test
    void tooLongAnOutputFailsTheNodeNamingTheCap() throws Exception {
        ServiceApi page = page(defaults, templateApp(defaults,
                "{% for a in range(1000) %}{% for b in range(1000) %}{{ x }}{% endfor %}{% endfor %}"));

        JsonNode data = runBlocking(page, "0123456789");

        assertThat(data.get("status").asText()).isEqualTo("failed");
        assertThat(data.get("error").asText()).isEqualTo("Output length exceeds 400000 characters");
        awaitNoRender(1000);
    }

    @Test
    void aStringDoubledPastTheCapFailsTheNodeBeforeItTakesTheHeap() throws Exception {
        ServiceApi page = page(defaults, templateApp(defaults,
                "{% set s = x %}{% for i in range(64) %}{% set s = s ~ s %}{% endfor %}{{ s|length }}"));

        JsonNode data = runBlocking(page, "ab");

        assertThat(data.get("status").asText()).isEqualTo("failed");
        assertThat(data.get("error").asText()).isEqualTo("Output length exceeds 400000 characters");
        assertThat(defaults.get("/health").statusCode()).isEqualTo(200);
    }

    @Test
    void anOrdinaryTemplateStillRendersOverThePageToken() {
        ServiceApi page = page(defaults, templateApp(defaults,
                "{% for w in x.split(' ') %}{{ loop.index }}={{ w|upper }}{% if not loop.last %}, {% endif %}"
                        + "{% endfor %}|{{ x|striptags }}"));

        JsonNode data = runBlocking(page, "tea <b>and</b> cake");

        assertThat(data.at("/outputs/out").asText()).isEqualTo("1=TEA, 2=<B>AND</B>, 3=CAKE|tea and cake");
    }

}
