package dev.hexaflow.adapters.traces;

import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The GenAI semantic conventions of a model node's span: a chat, its model and provider as the DSL names them,
 * and the tokens the model reported. Model nodes keep Dify's usage map in their process data (llm, agent) or their
 * outputs (question-classifier's {@code usage}, parameter-extractor's {@code __usage}).
 */
final class GenAiAttributes {

    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    /** The provider's older name, which many backends still read. */
    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");

    private static final Set<NodeType> MODEL_NODES = EnumSet.of(NodeType.LLM, NodeType.AGENT,
            NodeType.QUESTION_CLASSIFIER, NodeType.PARAMETER_EXTRACTOR);

    private GenAiAttributes() {
    }

    static boolean isModelNode(NodeType type) {
        return MODEL_NODES.contains(type);
    }

    /** The attributes of a model node's end; empty where it reported nothing (it failed before the model). */
    static Optional<Attributes> of(NodeExecution execution) {
        AttributesBuilder attributes = Attributes.builder().put(OPERATION, "chat");
        Map<String, Object> process = execution.processData();
        text(process, "model_name").ifPresent(model -> attributes.put(REQUEST_MODEL, model));
        text(process, "model_provider").ifPresent(provider -> attributes.put(PROVIDER, provider)
                .put(SYSTEM, provider));
        Map<?, ?> usage = map(process, "usage");
        usage = usage != null ? usage : map(execution.outputs(), "usage");
        usage = usage != null ? usage : map(execution.outputs(), "__usage");
        if (usage == null) {
            return Optional.empty();
        }
        attributes.put(INPUT_TOKENS, number(usage, "prompt_tokens"))
                .put(OUTPUT_TOKENS, number(usage, "completion_tokens"));
        return Optional.of(attributes.build());
    }

    private static Optional<String> text(Map<String, Object> values, String key) {
        return values != null && values.get(key) instanceof String text && !text.isBlank() ? Optional.of(text)
                : Optional.empty();
    }

    private static Map<?, ?> map(Map<String, Object> values, String key) {
        return values != null && values.get(key) instanceof Map<?, ?> found ? found : null;
    }

    private static long number(Map<?, ?> usage, String key) {
        return usage.get(key) instanceof Number value ? Math.max(0, value.longValue()) : 0;
    }
}
