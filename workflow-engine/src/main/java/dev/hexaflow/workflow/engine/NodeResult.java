package dev.hexaflow.workflow.engine;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * What one node run produced: the inputs it read, what it did (process data), its outputs, the source handle of
 * the edges to take, the tokens and price of model calls, and an agent's log (its rounds, model and tool calls).
 */
public record NodeResult(Map<String, Object> inputs, Map<String, Object> processData,
        Map<String, Object> outputs, String handle, long tokens, BigDecimal price,
        List<Map<String, Object>> agentLog) {

    public static final String DEFAULT_HANDLE = "source";

    public NodeResult {
        handle = handle == null ? DEFAULT_HANDLE : handle;
        price = price == null ? BigDecimal.ZERO : price;
        agentLog = agentLog == null ? List.of() : List.copyOf(agentLog);
    }

    public NodeResult(Map<String, Object> inputs, Map<String, Object> processData, Map<String, Object> outputs,
            String handle, long tokens, BigDecimal price) {
        this(inputs, processData, outputs, handle, tokens, price, List.of());
    }

    public static NodeResult of(Map<String, Object> inputs, Map<String, Object> outputs) {
        return new NodeResult(inputs, null, outputs, DEFAULT_HANDLE, 0, BigDecimal.ZERO);
    }

    public NodeResult withHandle(String next) {
        return new NodeResult(inputs, processData, outputs, next, tokens, price, agentLog);
    }

    public NodeResult withProcessData(Map<String, Object> data) {
        return new NodeResult(inputs, data, outputs, handle, tokens, price, agentLog);
    }

    public NodeResult withUsage(long usedTokens, BigDecimal usedPrice) {
        return new NodeResult(inputs, processData, outputs, handle, usedTokens, usedPrice, agentLog);
    }

    public NodeResult withAgentLog(List<Map<String, Object>> log) {
        return new NodeResult(inputs, processData, outputs, handle, tokens, price, log);
    }
}
