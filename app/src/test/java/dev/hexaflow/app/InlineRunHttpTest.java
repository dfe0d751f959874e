package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A blocking run of a workflow that may run inline (the benchmark's four nodes: start, template-transform,
 * if-else, end) plays on its request's thread; a streamed run of the same workflow plays on the engine's threads.
 * Both answer, keep and replay the run alike: the blocking answer, its detail, its node executions and its events
 * are those of its streamed twin, but for ids and times.
 */
class InlineRunHttpTest {

    /** What differs between two runs of one workflow with the same inputs. */
    private static final Set<String> OWN = Set.of("id", "created_at", "finished_at", "elapsed_time",
            "workflow_run_id", "task_id", "node_execution_id", "predecessor_node_id");

    @TempDir
    static Path dataDir;
    static TestServer server;
    static ServiceApi api;
    static String key;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
        key = server.importApp("four-nodes.yml").get("api_key").asText();
        api = server.api(key);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** The streamed run's frames' data, to its end. */
    private static List<JsonNode> streamed() {
        List<JsonNode> data = new ArrayList<>();
        SseFrames.all(SseFrames.open(SseFrames.post(server.baseUrl(), "/v1/workflows/run", key,
                json(run(Map.of("name", "ada"), "streaming", "ada")))).body())
                .forEach(frame -> data.add(TestServer.json(SseFrames.data(frame).substring("data: ".length()))));
        return data;
    }

    /** The node's fields that two runs of one workflow share. */
    private static Map<String, Object> shared(JsonNode node) {
        Map<String, Object> fields = new java.util.TreeMap<>();
        node.fields().forEachRemaining(field -> {
            if (!OWN.contains(field.getKey())) {
                fields.put(field.getKey(), field.getValue());
            }
        });
        return fields;
    }

    private static List<Map<String, Object>> nodeExecutions(String runId) {
        List<Map<String, Object>> nodes = new ArrayList<>();
        json(api.get("/v1/workflows/run/" + runId + "/node-executions?limit=100")).get("data")
                .forEach(node -> nodes.add(shared(node)));
        return nodes;
    }

    private static List<String> events(String runId) {
        List<String> names = new ArrayList<>();
        SseFrames.all(SseFrames.open(SseFrames.get(server.baseUrl(), "/v1/workflows/run/" + runId + "/events", key))
                .body()).forEach(frame -> names.add(TestServer.json(SseFrames.data(frame)
                        .substring("data: ".length())).get("event").asText()));
        return names;
    }

    @Test
    void aBlockingRunOfASequentialWorkflowAnswersKeepsAndReplaysAsItsStreamedTwin() {
        JsonNode blocking = json(api.postJson("/v1/workflows/run", run(Map.of("name", "ada"), "blocking", "ada")));
        List<JsonNode> frames = streamed();

        JsonNode answered = blocking.get("data");
        String runId = blocking.get("workflow_run_id").asText();
        JsonNode finished = frames.get(frames.size() - 1);
        assertThat(finished.get("event").asText()).isEqualTo("workflow_finished");
        assertThat(answered.get("status").asText()).isEqualTo("succeeded");
        assertThat(answered.get("outputs")).isEqualTo(TestServer.json("{\"greeting\": \"Hello, ada!\"}"));
        assertThat(answered.get("id").asText()).isEqualTo(runId);
        answered.fieldNames().forEachRemaining(field -> {
            if (!OWN.contains(field)) {
                assertThat(answered.get(field)).as(field).isEqualTo(finished.get("data").get(field));
            }
        });
        JsonNode detail = json(api.get("/v1/workflows/run/" + runId));
        for (String field : List.of("id", "workflow_id", "status", "outputs", "error", "total_steps", "total_tokens",
                "created_at", "finished_at", "elapsed_time")) {
            assertThat(detail.get(field)).as(field).isEqualTo(answered.get(field));
        }
        String streamedId = finished.get("workflow_run_id").asText();
        assertThat(nodeExecutions(runId)).hasSize(4).isEqualTo(nodeExecutions(streamedId));
        assertThat(events(runId)).isEqualTo(events(streamedId))
                .isEqualTo(frames.stream().map(frame -> frame.get("event").asText()).toList());
    }
}
