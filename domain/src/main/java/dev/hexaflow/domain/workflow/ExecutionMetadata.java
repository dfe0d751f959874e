package dev.hexaflow.domain.workflow;

import java.math.BigDecimal;

/**
 * What a node execution cost and where it ran: tokens and price (for model nodes), and the iteration or loop
 * round it belonged to.
 */
public record ExecutionMetadata(long totalTokens, BigDecimal totalPrice, String currency, String iterationId,
        Integer iterationIndex, String loopId, Integer loopIndex) {

    public static final ExecutionMetadata NONE = new ExecutionMetadata(0, BigDecimal.ZERO, "USD", null, null, null,
            null);

    public ExecutionMetadata {
        totalPrice = totalPrice == null ? BigDecimal.ZERO : totalPrice;
        currency = currency == null ? "USD" : currency;
    }

    public ExecutionMetadata withTokens(long tokens, BigDecimal price) {
        return new ExecutionMetadata(tokens, price, currency, iterationId, iterationIndex, loopId, loopIndex);
    }

    public ExecutionMetadata inIteration(String id, int index) {
        return new ExecutionMetadata(totalTokens, totalPrice, currency, id, index, loopId, loopIndex);
    }

    public ExecutionMetadata inLoop(String id, int index) {
        return new ExecutionMetadata(totalTokens, totalPrice, currency, iterationId, iterationIndex, id, index);
    }
}
