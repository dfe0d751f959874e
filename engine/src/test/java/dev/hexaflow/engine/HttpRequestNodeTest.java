package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The http-request node through the engine, building requests as Dify builds them, against a real server on
 * loopback. The requester's own timeouts, failures and stops are tested in adapters-nodes (JdkHttpRequesterTest).
 */
class HttpRequestNodeTest {

    static final FakeHttpTarget TARGET = new FakeHttpTarget();
    /** The target is on loopback, which the operator allows here as an operator would. */
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")));

    @AfterAll
    static void stop() {
        TARGET.close();
    }

    /** start (input q) → http (the given data) → end (all four outputs). */
    private static Workflow http(String data) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: q, type: text-input}]}}
                - id: http
                  data:
                    type: http-request
                    title: Call
                """ + data.strip().lines().map(l -> "    " + l).reduce("", (a, b) -> a + b + "\n") + """
                - id: end
                  data:
                    type: end
                    title: End
                    outputs:
                      - {variable: status, value_selector: [http, status_code]}
                      - {variable: body, value_selector: [http, body]}
                      - {variable: headers, value_selector: [http, headers]}
                      - {variable: files, value_selector: [http, files]}
                """, """
                - {source: start, target: http}
                - {source: http, target: end}
                """);
    }

    private static WorkflowRun run(Workflow workflow, String q) {
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("q", q)), RunListener.NONE);
    }

    private static FakeHttpTarget.Seen last() {
        return TARGET.seen().get(TARGET.seen().size() - 1);
    }

    @Test
    void aGetCarriesItsParamsAndHeadersLinesWithReferencesAndABearerKey() {
        WorkflowRun run = run(http("""
                method: get
                url: '%s'
                params: "lang:{{#start.q#}}\\npage: 2"
                headers: "X-Trace:{{#start.q#}}-1\\nAccept: application/json"
                authorization: {type: api-key, config: {type: bearer, api_key: 'sk-{{#start.q#}}'}}
                body: {type: none, data: []}
                """.formatted(TARGET.url("/echo"))), "en");

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("status", 200L).containsEntry("body", "{\"echo\":\"GET\"}");
        assertThat(run.outputs().get("headers")).asString().contains("x-target=fake");
        assertThat(last().uri()).isEqualTo("/echo?lang=en&page=2");
        assertThat(last().headers()).containsEntry("x-trace", "en-1").containsEntry("authorization", "Bearer sk-en");
    }

    @Test
    void jsonAndFormBodiesAreSentWithTheirContentTypes() {
        run(http("""
                method: post
                url: '%s'
                body: {type: json, data: [{type: text, value: '{"q": "{{#start.q#}}"}'}]}
                """.formatted(TARGET.url("/echo"))), "hi");
        FakeHttpTarget.Seen json = last();
        run(http("""
                method: PUT
                url: '%s'
                body: {type: x-www-form-urlencoded, data: [{key: a, type: text, value: '{{#start.q#}} there'}]}
                """.formatted(TARGET.url("/echo"))), "hi");
        FakeHttpTarget.Seen form = last();

        assertThat(json.method()).isEqualTo("POST");
        assertThat(json.body()).isEqualTo("{\"q\": \"hi\"}");
        assertThat(json.headers()).containsEntry("content-type", "application/json");
        assertThat(form.method()).isEqualTo("PUT");
        assertThat(form.body()).isEqualTo("a=hi+there");
        assertThat(form.headers()).containsEntry("content-type", "application/x-www-form-urlencoded");
    }

    @Test
    void basicAndCustomHeaderKeysAreSentAsDifySendsThem() {
        run(http("""
                url: '%s'
                authorization: {type: api-key, config: {type: basic, api_key: 'ada:secret'}}
                """.formatted(TARGET.url("/echo"))), "x");
        String basic = last().headers().get("authorization");
        run(http("""
                url: '%s'
                authorization: {type: api-key, config: {type: custom, header: X-Api-Key, api_key: k123}}
                """.formatted(TARGET.url("/echo"))), "x");

        assertThat(basic).isEqualTo("Basic " + Base64.getEncoder().encodeToString("ada:secret".getBytes()));
        assertThat(last().headers()).containsEntry("x-api-key", "k123");
    }

    @Test
    void anErrorStatusIsAResultNotAFailure() {
        WorkflowRun run = run(http("url: '" + TARGET.url("/status/404") + "'"), "x");

        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("status", 404L).containsEntry("body", "status 404");
    }

    @Test
    void aBinaryAnswerBecomesAFileAndAnEmptyBody() {
        WorkflowRun run = run(http("url: '" + TARGET.url("/image") + "'"), "x");

        assertThat(run.outputs()).containsEntry("body", "");
        FileValue file = (FileValue) ((List<?>) run.outputs().get("files")).get(0);
        assertThat(file.type()).isEqualTo("image");
        assertThat(file.mimeType()).isEqualTo("image/png");
        assertThat(file.size()).isEqualTo(10);
    }

    @Test
    void aUrlWhoseValueHoldsCharactersAUrlCannotCarryGoesOutPercentEncodedAsDifySendsIt() {
        WorkflowRun query = run(http("url: '" + TARGET.url("/echo") + "?q={{#start.q#}}'"),
                "hello world | \" < > { } ^ ` \\ é 100% %41");
        assertThat(query.status()).as(query.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(last().uri()).isEqualTo("/echo?q=hello%20world%20%7C%20%22%20%3C%20%3E%20%7B%20%7D%20%5E%20%60"
                + "%20%5C%20%C3%A9%20100%25%20%41");

        WorkflowRun path = run(http("url: '" + TARGET.url("/echo/{{#start.q#}}") + "'"), "a b[1]?c=d e");
        assertThat(path.status()).as(path.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(last().uri()).isEqualTo("/echo/a%20b%5B1%5D?c=d%20e");
    }

    @Test
    void aUrlThatIsNotHttpFailsTheNodeWithDifysMessage() {
        for (String url : List.of("{{#start.q#}}", "ftp://{{#start.q#}}/x", "{{#start.q#}}/echo")) {
            WorkflowRun run = run(http("url: '" + url + "'"), "127.0.0.1");

            assertThat(run.status()).as(url).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).as(url).isEqualTo("url should start with http:// or https://");
        }
    }
}
