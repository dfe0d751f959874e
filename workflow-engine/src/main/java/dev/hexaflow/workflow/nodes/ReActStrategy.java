package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The agent plugin's {@code ReAct} strategy: describes the tools in the prompt and reads a JSON action from each
 * answer, keeping the thoughts and observations so far in a scratchpad, until a final answer or the last round.
 */
final class ReActStrategy {

    private ReActStrategy() {
    }

    static void run(AgentRun run, String instruction, List<ChatMessage> history, String query,
            Map<String, OfferedTool> tools) {
        String system = ReactPrompt.system(instruction, tools.values().stream().map(OfferedTool::function)
                .toList());
        StringBuilder scratchpad = new StringBuilder();
        Map<String, Object> stopWords = Map.of("stop", List.of("Observation:"));
        for (int round = 1; round <= run.maximumIterations(); round++) {
            run.checkStopped();
            String roundId = "round-" + round;
            long roundStarted = System.currentTimeMillis();
            run.roundBegun(roundId, round, roundStarted);
            List<ChatMessage> messages = new ArrayList<>(List.of(ChatMessage.of("system", system)));
            messages.addAll(history);
            messages.add(ChatMessage.of("user", "Question: " + query));
            if (!scratchpad.isEmpty()) {
                messages.add(ChatMessage.of("assistant", scratchpad.toString()));
            }
            ChatResult result = run.call(roundId, messages, List.of(), stopWords, piece -> { });
            ReactPrompt.Action action = ReactPrompt.parse(result.text());
            boolean last = round == run.maximumIterations();
            if (action.finalAnswer() != null || action.tool() == null || last) {
                String answer = action.finalAnswer() != null ? action.finalAnswer() : result.text();
                run.appendText(answer);
                run.stream(answer);
                run.roundEnded(roundId, round, roundStarted, result.text(), List.of());
                return;
            }
            String callId = roundId + "-call";
            String observation = run.invoke(roundId, callId, action.tool(), action.input(), tools);
            scratchpad.append(result.text().strip()).append("\nObservation: ").append(observation)
                    .append("\n");
            run.roundEnded(roundId, round, roundStarted, result.text(), List.of(Map.of("tool_call_id", callId,
                    "tool_call_name", action.tool(), "tool_response", AgentLog.shortened(observation))));
        }
    }
}
