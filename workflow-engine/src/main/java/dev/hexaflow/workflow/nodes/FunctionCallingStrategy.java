package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.JsonText;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.workflow.port.out.ModelProvider.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The agent plugin's {@code function_calling} strategy: offers the tools to the model with their JSON schemas and
 * runs the calls it makes, round after round, the last one without tools so that the model answers.
 */
final class FunctionCallingStrategy {

    private FunctionCallingStrategy() {
    }

    static void run(AgentRun run, String instruction, List<ChatMessage> history, String query,
            Map<String, OfferedTool> tools) {
        List<ChatMessage> messages = new ArrayList<>();
        if (!instruction.isBlank()) {
            messages.add(ChatMessage.of("system", instruction));
        }
        messages.addAll(history);
        messages.add(ChatMessage.of("user", query));
        List<ModelProvider.Tool> functions = tools.values().stream().map(OfferedTool::function).toList();
        for (int round = 1; round <= run.maximumIterations(); round++) {
            run.checkStopped();
            boolean last = round == run.maximumIterations();
            String roundId = "round-" + round;
            long roundStarted = System.currentTimeMillis();
            run.roundBegun(roundId, round, roundStarted);
            ChatResult result = run.call(roundId, messages, last ? List.of() : functions, Map.of(), run::stream);
            run.appendText(result.text());
            if (result.toolCalls().isEmpty() || last) {
                run.roundEnded(roundId, round, roundStarted, result.text(), List.of());
                return;
            }
            messages.add(ChatMessage.assistant(result.text(), result.toolCalls()));
            List<Map<String, Object>> responses = new ArrayList<>();
            for (ToolCall call : result.toolCalls()) {
                run.checkStopped();
                String response = run.invoke(roundId, call.id(), call.name(), arguments(call.arguments()), tools);
                messages.add(ChatMessage.toolResult(call.id(), response));
                responses.add(Map.of("tool_call_id", call.id(), "tool_call_name", call.name(),
                        "tool_response", AgentLog.shortened(response)));
            }
            run.roundEnded(roundId, round, roundStarted, result.text(), responses);
        }
    }

    /** The call's arguments as JSON (none when blank), or the text itself, which the tool call reports as an error. */
    private static Object arguments(String json) {
        if (json.isBlank()) {
            return Map.of();
        }
        try {
            return JsonText.parse(json);
        } catch (IllegalArgumentException e) {
            return json;
        }
    }
}
