package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.testing.SharedFolder;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The standard engine's built-in tools through tool nodes, against a real server on loopback. */
class BuiltinToolsEngineTest {

    static final FakeHttpTarget TARGET = new FakeHttpTarget();
    static final WorkflowEngine ALLOWS_LOOPBACK = Engines.standard(EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")));
    static final WorkflowEngine DEFAULTS = Engines.standard(EngineConfiguration.fromEnvironment(Map.of()));

    @AfterAll
    static void stop() {
        TARGET.close();
    }

    private static WorkflowRun run(WorkflowEngine engine, Workflow workflow, Map<String, Object> inputs) {
        return engine.run(engine.prepare(workflow), RunRequest.of(workflow, "u", inputs), RunListener.NONE);
    }

    @Test
    void difysHttpThenJsonToolFixtureGivesTheStatusAndTheParsedBodyItsTestExpects() throws Exception {
        Workflow workflow = new YamlWorkflowDslReader().read(Files.readAllBytes(SharedFolder.require(
                "conformance/dify-chatflow/http_request_with_json_tool_workflow.yml")));
        String url = TARGET.serve("data.json", "application/json",
                "{\"key\": \"value\", \"number\": 42}".getBytes(StandardCharsets.UTF_8));

        WorkflowRun run = run(ALLOWS_LOOPBACK, workflow, Map.of("url", url));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("status_code", 200L)
                .containsEntry("parsed_data", Map.of("key", "value", "number", 42L));
    }

    private static Workflow scraper() {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: url, type: text-input}]}}
                - id: scrape
                  data:
                    type: tool
                    title: Scrape
                    provider_type: builtin
                    provider_id: webscraper
                    provider_name: webscraper
                    tool_name: webscraper
                    tool_parameters: {url: {type: mixed, value: '{{#start.url#}}'}}
                    tool_configurations: {user_agent: {type: constant, value: hexaflow-test}}
                - {id: end, data: {type: end, title: End, outputs: [{variable: page, value_selector: [scrape, text]}]}}
                """, """
                - {source: start, target: scrape}
                - {source: scrape, target: end}
                """);
    }

    @Test
    void theWebscraperReadsAPageTheOperatorAllowsAndIsRefusedOneOnLoopbackByDefault() {
        String url = TARGET.serve("page.html", "text/html", ("<html><head><title>T</title></head><body><p>Hello"
                + " from loopback</p></body></html>").getBytes(StandardCharsets.UTF_8));

        WorkflowRun allowed = run(ALLOWS_LOOPBACK, scraper(), Map.of("url", url));
        WorkflowRun refused = run(DEFAULTS, scraper(), Map.of("url", url));

        assertThat(allowed.status()).as(allowed.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat((String) allowed.outputs().get("page")).contains("TITLE: T").contains("Hello from loopback");
        assertThat(refused.status()).isEqualTo(RunStatus.FAILED);
        assertThat(refused.error()).startsWith("Failed to invoke tool webscraper: ")
                .contains("HEXAFLOW_OUTBOUND_ALLOW");
    }

    @Test
    void theSqlSettingsTakeOnlyTheDriversTheServerHasAndAYesOrNoForWrites() {
        assertThat(EngineConfiguration.fromEnvironment(Map.of()).sqlDatabase()).isEmpty();
        assertThat(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_SQL_URL", "jdbc:h2:mem:x"))
                .sqlDatabase().orElseThrow()).satisfies(database -> {
                    assertThat(database.writes()).isFalse();
                    assertThat(database.maxRows()).isEqualTo(1000);
                    assertThat(database.timeout()).isEqualTo(java.time.Duration.ofSeconds(30));
                });
        assertThatThrownBy(() -> EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_SQL_URL",
                "jdbc:mysql://db/shop"))).isInstanceOf(InvalidEngineConfigurationException.class)
                .hasMessageContaining("jdbc:postgresql: or jdbc:h2:");
        assertThatThrownBy(() -> EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_SQL_URL", "jdbc:h2:mem:x",
                "HEXAFLOW_SQL_WRITES", "yes"))).isInstanceOf(InvalidEngineConfigurationException.class)
                .hasMessageContaining("HEXAFLOW_SQL_WRITES must be true or false");
        assertThatThrownBy(() -> EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_SQL_URL", "jdbc:h2:mem:x",
                "HEXAFLOW_SQL_MAX_ROWS", "0"))).isInstanceOf(InvalidEngineConfigurationException.class)
                .hasMessageContaining("HEXAFLOW_SQL_MAX_ROWS");
        assertThat(EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_SQL_URL", "jdbc:h2:mem:x",
                "HEXAFLOW_SQL_PASSWORD", "hunter2")).sqlDatabase().orElseThrow().toString()).doesNotContain("hunter2");
    }
}
