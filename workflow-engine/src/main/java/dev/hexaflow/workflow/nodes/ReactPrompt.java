package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.domain.workflow.JsonText;
import dev.hexaflow.domain.workflow.Values;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The ReAct strategy's text protocol: the system prompt that lists the tools and asks for one JSON action per
 * answer, and the reading of that action from what the model wrote.
 */
final class ReactPrompt {

    static final String FINAL_ANSWER = "Final Answer";
    private static final Pattern FENCED = Pattern.compile("(?s)```(?:json)?\\s*(\\{.*?})\\s*```");

    private ReactPrompt() {
    }

    /** What the model answered: a tool to call with its input, or the final answer; neither when it wrote none. */
    record Action(String tool, Object input, String finalAnswer) {
    }

    static String system(String instruction, java.util.List<ModelProvider.Tool> tools) {
        String described = tools.stream().map(tool -> "- " + tool.name() + ": " + tool.description()
                + " Input schema: " + Values.json(tool.parameters())).collect(Collectors.joining("\n"));
        String names = tools.stream().map(tool -> "\"" + tool.name() + "\"").collect(Collectors.joining(", "));
        return """
                Answer the human as helpfully and accurately as you can.

                %s

                These are the tools you may use:

                %s

                To use a tool, write a JSON object with an "action" key (the tool's name) and an "action_input" key \
                (its input). The "action" is either "%s" or one of: %s. Write exactly one action each time:

                Thought: what you know and what to do next
                Action:
                ```
                {"action": "<tool name>", "action_input": {<the tool's input>}}
                ```
                Observation: the tool's result

                and repeat Thought, Action and Observation as often as needed; once you know the answer write:

                Thought: I know what to answer
                Action:
                ```
                {"action": "%s", "action_input": "<your answer to the human>"}
                ```
                """.formatted(instruction, described.isEmpty() ? "(none)" : described, FINAL_ANSWER,
                names.isEmpty() ? "(none)" : names, FINAL_ANSWER);
    }

    /** Reads the first JSON action in the answer, fenced or bare; an answer without one is its own final answer. */
    static Action parse(String answer) {
        Matcher fenced = FENCED.matcher(answer);
        Map<String, Object> action = fenced.find() ? object(fenced.group(1)) : ModelNodes.jsonObject(answer);
        Object name = action.get("action");
        if (name == null) {
            return new Action(null, null, null);
        }
        Object input = action.get("action_input");
        if (FINAL_ANSWER.equalsIgnoreCase(String.valueOf(name).strip())) {
            return new Action(null, null, input instanceof String text ? text : Values.text(input));
        }
        if (input instanceof String text) {
            Object parsed = object(text);
            input = ((Map<?, ?>) parsed).isEmpty() && !text.isBlank() ? text : parsed;
        }
        return new Action(String.valueOf(name).strip(), input == null ? Map.of() : input, null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String json) {
        try {
            Object parsed = JsonText.parse(json);
            return parsed instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        } catch (IllegalArgumentException e) {
            return Map.of();
        }
    }
}
