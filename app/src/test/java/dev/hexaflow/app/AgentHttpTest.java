package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.engine.EngineConfiguration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app with Dify's agent node on the real server: imported, run over the service API against a fake model on
 * loopback that calls the built-in weekday tool, and its rounds and tool calls read back from the run's record.
 */
class AgentHttpTest {

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (model != null) {
            model.close();
        }
    }

    @Test
    void anAgentAppImportsRunsItsToolCallAndKeepsItsLogInTheNodesExecutionMetadata() {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        model.answerInTurn(Script.toolCall("weekday", "{\"year\": 2024, \"month\": 2, \"day\": 29}"),
                Script.text("A Thursday.", 20, 3));

        JsonNode imported = server.importApp("agent.yml");
        ServiceApi api = server.api(imported.get("api_key").asText());
        JsonNode ran = json(api.postJson("/v1/workflows/run", run(Map.of("query", "What day is 2024-02-29?"),
                "blocking", "ada")));
        String runId = ran.get("workflow_run_id").asText();
        JsonNode executions = json(api.get("/v1/workflows/run/" + runId + "/node-executions?limit=100"));

        assertThat(imported.get("warnings")).isEmpty();
        assertThat(ran.get("data").get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
        assertThat(ran.get("data").get("outputs").get("answer").asText()).isEqualTo("A Thursday.");
        assertThat(ran.get("data").get("total_tokens").asLong()).isEqualTo(15 + 23);
        JsonNode agent = null;
        for (JsonNode execution : executions.get("data")) {
            if (execution.get("node_type").asText().equals("agent")) {
                agent = execution;
            }
        }
        assertThat(agent).as(executions.toString()).isNotNull();
        List<String> labels = new ArrayList<>();
        agent.get("execution_metadata").get("agent_log").forEach(entry -> labels.add(entry.get("label").asText()));
        assertThat(labels).containsExactly("ROUND 1", "gpt-4o-mini Thought", "CALL weekday", "ROUND 2",
                "gpt-4o-mini Thought");
        JsonNode call = agent.get("execution_metadata").get("agent_log").get(2).get("data").get("output");
        assertThat(call.get("tool_call_input").get("month").asInt()).isEqualTo(2);
        assertThat(call.get("tool_response").asText()).isEqualTo("February 29, 2024 is Thursday.");
        assertThat(agent.get("outputs").get("usage").get("total_tokens").asLong()).isEqualTo(38);
        assertThat(agent.get("execution_metadata").get("total_tokens").asLong()).isEqualTo(38);
    }

    @Test
    void aStreamingRunSendsEachLogEntryAsAnAgentLogEventAsItBeginsAndEndsBeforeTheNodeFinishes() throws Exception {
        model = new FakeModelServer();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-t")));
        model.answerInTurn(Script.toolCall("weekday", "{\"year\": 2024, \"month\": 2, \"day\": 29}"),
                Script.text("A Thursday.", 20, 3));
        ServiceApi api = server.api(server.importApp("agent.yml").get("api_key").asText());

        List<JsonNode> events = new ArrayList<>();
        try (java.io.InputStream body = api.postStreaming("/v1/workflows/run", run(Map.of("query",
                "What day is 2024-02-29?"), "streaming", "ada")).body()) {
            for (String line : new String(body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("data: ")) {
                    events.add(TestServer.json(line.substring("data: ".length())));
                }
            }
        }

        List<String> logged = new ArrayList<>();
        String agentExecution = null;
        int agentFinished = -1;
        int lastLog = -1;
        for (int i = 0; i < events.size(); i++) {
            JsonNode event = events.get(i);
            String kind = event.get("event").asText();
            if (kind.equals("agent_log")) {
                JsonNode data = event.get("data");
                logged.add(data.get("label").asText() + " " + data.get("status").asText());
                agentExecution = data.get("node_execution_id").asText();
                assertThat(data.get("node_id").asText()).isNotBlank();
                assertThat(event.get("workflow_run_id").asText()).isNotBlank();
                lastLog = i;
            }
            if (kind.equals("node_finished") && event.get("data").get("node_type").asText().equals("agent")) {
                agentFinished = i;
                assertThat(event.get("data").get("id").asText()).isEqualTo(agentExecution);
            }
        }
        assertThat(logged).containsExactly("ROUND 1 start", "gpt-4o-mini Thought start", "gpt-4o-mini Thought success",
                "CALL weekday start", "CALL weekday success", "ROUND 1 success", "ROUND 2 start",
                "gpt-4o-mini Thought start", "gpt-4o-mini Thought success", "ROUND 2 success");
        assertThat(lastLog).isLessThan(agentFinished);
        JsonNode call = events.stream().filter(e -> e.get("event").asText().equals("agent_log")
                && e.get("data").get("label").asText().equals("CALL weekday")
                && e.get("data").get("status").asText().equals("success")).findFirst().orElseThrow();
        assertThat(call.get("data").get("parent_id").asText()).isEqualTo("round-1");
        assertThat(call.get("data").at("/data/output/tool_response").asText())
                .isEqualTo("February 29, 2024 is Thursday.");
        assertThat(call.get("data").fieldNames()).toIterable().containsExactly("node_execution_id", "id", "label",
                "parent_id", "error", "status", "data", "metadata", "node_id");
    }

    @Test
    void anAgentAppImportsWithoutAModelButItsRunIsRefusedWithDifysMessage() {
        server = TestServer.start(dataDir);

        JsonNode imported = server.importApp("agent.yml");
        JsonNode ran = json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run",
                run(Map.of("query", "q"), "blocking", "ada")));

        assertThat(ran.toString()).contains("provider_not_initialize");
    }
}
