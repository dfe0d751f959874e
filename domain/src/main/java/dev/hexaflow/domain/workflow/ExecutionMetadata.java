package dev.hexaflow.domain.workflow;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * What a node execution cost and where it ran: tokens and price (for model nodes), the iteration or loop round it
 * belonged to, and, for an agent, its log: one entry per round, model call and tool call, as Dify's
 * {@code agent_log} gives them.
 */
public record ExecutionMetadata(long totalTokens, BigDecimal totalPrice, String currency, String iterationId,
        Integer iterationIndex, String loopId, Integer loopIndex, List<Map<String, Object>> agentLog) {

    public static final ExecutionMetadata NONE = new ExecutionMetadata(0, BigDecimal.ZERO, "USD", null, null, null,
            null);

    public ExecutionMetadata {
        totalPrice = totalPrice == null ? BigDecimal.ZERO : totalPrice;
        currency = currency == null ? "USD" : currency;
        agentLog = agentLog == null ? List.of() : List.copyOf(agentLog);
    }

    public ExecutionMetadata(long totalTokens, BigDecimal totalPrice, String currency, String iterationId,
            Integer iterationIndex, String loopId, Integer loopIndex) {
        this(totalTokens, totalPrice, currency, iterationId, iterationIndex, loopId, loopIndex, List.of());
    }

    public ExecutionMetadata withTokens(long tokens, BigDecimal price) {
        return new ExecutionMetadata(tokens, price, currency, iterationId, iterationIndex, loopId, loopIndex,
                agentLog);
    }

    public ExecutionMetadata inIteration(String id, int index) {
        return new ExecutionMetadata(totalTokens, totalPrice, currency, id, index, loopId, loopIndex, agentLog);
    }

    public ExecutionMetadata inLoop(String id, int index) {
        return new ExecutionMetadata(totalTokens, totalPrice, currency, iterationId, iterationIndex, id, index,
                agentLog);
    }

    public ExecutionMetadata withAgentLog(List<Map<String, Object>> log) {
        return new ExecutionMetadata(totalTokens, totalPrice, currency, iterationId, iterationIndex, loopId,
                loopIndex, log);
    }
}
