package dev.hexaflow.application.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase.McpAppTool;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase.McpToolAnswer;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The calls at an app's MCP server URL: an unknown or switched-off code is not found, an app with no published
 * workflow unavailable; the tool is the app's, its schema its start form with the operator's descriptions; a call
 * is a run for the server's end user with the arguments as its inputs, answered with its outputs as JSON text, its
 * error when it fails, and cut short (the run going on) past the wait.
 */
class ServeMcpServerServiceTest {

    private final McpServerBed bed = new McpServerBed();
    private final ServeMcpServerUseCase serve = bed.serve(Duration.ofMillis(300));

    @Test
    void anUnknownOrSwitchedOffCodeIsNotFoundAndAnUnpublishedAppUnavailable() {
        String appId = bed.app("a1", "Echo", "workflow", true);
        String code = bed.manage().setEnabled(appId, true).server().code();
        assertThat(serve.open(code).name()).isEqualTo("Echo");
        bed.manage().setEnabled(appId, false);

        for (String refused : List.of(code, "0".repeat(AppMcpServer.CODE_LENGTH), "short", "../" + code)) {
            assertThatThrownBy(() -> serve.open(refused)).isInstanceOfSatisfying(ApiException.class, e -> {
                assertThat(e.error()).isEqualTo(ApiError.NOT_FOUND);
                assertThat(e.getMessage()).isEqualTo("Server Not Found");
            });
        }
        assertThatThrownBy(() -> serve.call(code, Map.of())).isInstanceOf(ApiException.class);
        assertThat(bed.started).isEmpty();

        String draft = bed.app("a2", "Draft", "workflow", false);
        String draftCode = bed.manage().setEnabled(draft, true).server().code();
        assertThatThrownBy(() -> serve.open(draftCode)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.error()).isEqualTo(ApiError.APP_UNAVAILABLE));
    }

    @Test
    void theToolsSchemaIsTheStartFormWithTheOperatorsDescriptions() {
        String appId = bed.app("a1", "Echo", "workflow", true);
        bed.forms.put(appId, List.of(McpServerBed.field("topic", "text-input", true, List.of()),
                McpServerBed.field("tone", "select", false, List.of("calm", "loud")),
                McpServerBed.field("count", "number", false, List.of()),
                McpServerBed.field("photo", "file", true, List.of())));
        bed.manage().describe(appId, "Writes", Map.of("topic", "What to write about"));
        String code = bed.manage().setEnabled(appId, true).server().code();

        McpAppTool tool = serve.open(code);
        assertThat(tool.description()).isEqualTo("Writes");
        Map<String, Object> topic = new LinkedHashMap<>();
        topic.put("description", "What to write about");
        topic.put("type", "string");
        assertThat(tool.inputSchema().get("required")).isEqualTo(List.of("topic"));
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = (Map<String, Object>) tool.inputSchema().get("properties");
        assertThat(properties.keySet()).containsExactly("topic", "tone", "count");
        assertThat(properties.get("topic")).isEqualTo(topic);
        assertThat(properties.get("tone")).isEqualTo(Map.of("description", "", "type", "string", "enum",
                List.of("calm", "loud")));
        assertThat(properties.get("count")).isEqualTo(Map.of("description", "", "type", "number"));

        String version = tool.version();
        bed.clock.advance(Duration.ofSeconds(1));
        bed.manage().describe(appId, "Writes well", Map.of());
        assertThat(serve.open(code).version()).isNotEqualTo(version);
    }

    @Test
    void aCallIsARunOfTheServersEndUserAnsweredWithItsOutputsOrItsError() {
        String appId = bed.app("a1", "Echo", "workflow", true);
        AppMcpServer server = bed.manage().setEnabled(appId, true).server();
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("answer", "You said: hé");
        outputs.put("n", 2);
        bed.ends = run(RunStatus.SUCCEEDED, outputs, null);

        McpToolAnswer answer = serve.call(server.code(), Map.of("query", "hé"));
        assertThat(answer.failed()).isFalse();
        assertThat(answer.text()).isEqualTo("{\"answer\": \"You said: hé\", \"n\": 2}");
        assertThat(answer.runId()).isEqualTo("run-x");
        assertThat(bed.started.get(0).user()).isEqualTo(server.id());
        assertThat(bed.started.get(0).appId()).isEqualTo(appId);
        assertThat(bed.started.get(0).inputs()).isEqualTo(Map.of("query", "hé"));

        bed.ends = run(RunStatus.FAILED, Map.of(), "the printer is on fire");
        McpToolAnswer failed = serve.call(server.code(), Map.of());
        assertThat(failed.failed()).isTrue();
        assertThat(failed.text()).isEqualTo("the printer is on fire");
    }

    @Test
    void aRunPastTheWaitIsCutShortAndGoesOn() {
        String code = bed.manage().setEnabled(bed.app("a1", "Slow", "workflow", true), true).server().code();
        bed.ends = null;
        long started = System.nanoTime();
        McpToolAnswer answer = serve.call(code, Map.of());
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(300),
                Duration.ofSeconds(5));
        assertThat(answer.failed()).isTrue();
        assertThat(answer.text()).contains("The run run-1 goes on past 0 s");
    }

    @Test
    void aChatflowsCallNeedsItsQuery() {
        String code = bed.manage().setEnabled(bed.app("c1", "Tea", "advanced-chat", true), true).server().code();
        assertThat(serve.open(code).inputSchema().get("required")).isEqualTo(List.of("query"));
        for (Map<String, Object> arguments : List.<Map<String, Object>>of(Map.of(), Map.of("query", " "),
                Map.of("query", 7))) {
            assertThatThrownBy(() -> serve.call(code, arguments)).isInstanceOfSatisfying(ApiException.class,
                    e -> assertThat(e.error()).isEqualTo(ApiError.INVALID_PARAM));
        }
    }

    private static WorkflowRun run(RunStatus status, Map<String, Object> outputs, String error) {
        return new WorkflowRun("run-x", "v", status, Map.of(), outputs, error, 0.1, 0, 2, 0, 1, 2L);
    }
}
