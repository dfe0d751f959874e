package dev.hexaflow.application.workflow.engine;

import java.math.BigDecimal;
import java.util.Map;

/**
 * What one node run produced: the inputs it read, what it did (process data), its outputs, the source handle of
 * the edges to take, and the tokens and price of model calls.
 */
public record NodeResult(Map<String, Object> inputs, Map<String, Object> processData,
        Map<String, Object> outputs, String handle, long tokens, BigDecimal price) {

    public static final String DEFAULT_HANDLE = "source";

    public NodeResult {
        handle = handle == null ? DEFAULT_HANDLE : handle;
        price = price == null ? BigDecimal.ZERO : price;
    }

    public static NodeResult of(Map<String, Object> inputs, Map<String, Object> outputs) {
        return new NodeResult(inputs, null, outputs, DEFAULT_HANDLE, 0, BigDecimal.ZERO);
    }

    public NodeResult withHandle(String next) {
        return new NodeResult(inputs, processData, outputs, next, tokens, price);
    }

    public NodeResult withProcessData(Map<String, Object> data) {
        return new NodeResult(inputs, data, outputs, handle, tokens, price);
    }

    public NodeResult withUsage(long usedTokens, BigDecimal usedPrice) {
        return new NodeResult(inputs, processData, outputs, handle, usedTokens, usedPrice);
    }
}
