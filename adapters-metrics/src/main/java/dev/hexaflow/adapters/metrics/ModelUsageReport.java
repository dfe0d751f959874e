package dev.hexaflow.adapters.metrics;

import dev.hexaflow.domain.workflow.NodeExecution;
import java.util.Map;
import java.util.Optional;

/**
 * The tokens a node execution reports, and its model: model nodes keep Dify's usage map in their process data
 * (llm, agent) or their outputs (question-classifier's {@code usage}, parameter-extractor's {@code __usage}), and
 * the DSL's model name in {@code model_name}.
 */
record ModelUsageReport(String model, long promptTokens, long completionTokens, long totalTokens) {

    /** A model name longer than this is cut: a label stays short whatever a DSL holds. */
    static final int LONGEST_MODEL_NAME = 64;

    static Optional<ModelUsageReport> of(NodeExecution execution) {
        Map<?, ?> usage = map(execution.processData(), "usage");
        if (usage == null) {
            usage = map(execution.outputs(), "usage");
        }
        if (usage == null) {
            usage = map(execution.outputs(), "__usage");
        }
        if (usage == null) {
            return Optional.empty();
        }
        return Optional.of(new ModelUsageReport(modelOf(execution), number(usage, "prompt_tokens"),
                number(usage, "completion_tokens"), number(usage, "total_tokens")));
    }

    private static String modelOf(NodeExecution execution) {
        Map<String, Object> process = execution.processData();
        Object name = process == null ? null : process.get("model_name");
        if (!(name instanceof String text) || text.isBlank()) {
            return "unknown";
        }
        return text.length() > LONGEST_MODEL_NAME ? text.substring(0, LONGEST_MODEL_NAME) : text;
    }

    private static Map<?, ?> map(Map<String, Object> values, String key) {
        return values != null && values.get(key) instanceof Map<?, ?> found ? found : null;
    }

    private static long number(Map<?, ?> usage, String key) {
        return usage.get(key) instanceof Number value ? Math.max(0, value.longValue()) : 0;
    }
}
