package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeUnavailableException;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.domain.workflow.ModelUsage;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the model nodes (llm, parameter-extractor, question-classifier) share. */
final class ModelNodes {

    static final String PROVIDER_NOT_INITIALIZED = "provider_not_initialize";
    private static final Pattern THINKING = Pattern.compile("(?s)^\\s*<think>(.*?)</think>\\s*");

    private ModelNodes() {
    }

    static void checkReady(ModelProvider models) {
        if (models == null || !models.isConfigured()) {
            throw new NodeUnavailableException(PROVIDER_NOT_INITIALIZED, "No valid model provider credentials "
                    + "found. Set HEXAFLOW_LLM_BASE_URL (and HEXAFLOW_LLM_API_KEY) to an OpenAI-compatible endpoint.");
        }
    }

    static ModelProvider.ChatResult chat(ModelProvider models, ModelProvider.ChatRequest request,
            Consumer<String> onText, StopSignal stop) {
        try {
            return models.chat(request, onText, stop);
        } catch (ModelProvider.ModelException e) {
            throw new NodeFailure("InvokeError", e.getMessage(), e);
        }
    }

    /** Dify's usage object of one model call. */
    static Map<String, Object> usage(ModelProvider.Usage usage, double latency) {
        return new ModelUsage(usage.promptTokens(), usage.completionTokens(), usage.totalTokens(), latency).asDify();
    }

    /** The first JSON object in a model's answer, which may wrap it in prose or a code fence; empty if none. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> jsonObject(String answer) {
        int start = answer.indexOf('{');
        int end = answer.lastIndexOf('}');
        if (start < 0 || end <= start) {
            return Map.of();
        }
        try {
            Object parsed = dev.hexaflow.domain.workflow.JsonText.parse(answer.substring(start, end + 1));
            return parsed instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        } catch (IllegalArgumentException e) {
            return Map.of();
        }
    }

    /** Splits a leading {@code <think>...</think>} from the answer: [reasoning, text]. */
    static String[] splitThinking(String text) {
        Matcher matcher = THINKING.matcher(text);
        if (matcher.find()) {
            return new String[] {matcher.group(1).strip(), text.substring(matcher.end())};
        }
        return new String[] {"", text};
    }
}
