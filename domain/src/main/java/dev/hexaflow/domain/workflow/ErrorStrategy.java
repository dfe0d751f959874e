package dev.hexaflow.domain.workflow;

import java.util.Optional;

/** What a node's failure (after its retries) becomes: Dify's {@code error_strategy}. */
public enum ErrorStrategy {
    /** The failure fails the node: it stops the run, or inside an iteration or loop, fails the container. */
    NONE("none"),
    /** The node ends as an exception and the run goes on along the node's {@code fail-branch} edges. */
    FAIL_BRANCH("fail-branch"),
    /** The node ends as an exception with its declared default outputs and the run goes on as if it had not. */
    DEFAULT_VALUE("default-value");

    private final String wireName;

    ErrorStrategy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /**
     * The strategy a DSL names. Dify's files leave it out (or null) for none, and its editor writes {@code none}
     * when the choice is taken back, so absent, empty and {@code none} all mean {@link #NONE}.
     */
    public static Optional<ErrorStrategy> fromWireName(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of(NONE);
        }
        for (ErrorStrategy strategy : values()) {
            if (strategy.wireName.equals(name)) {
                return Optional.of(strategy);
            }
        }
        return Optional.empty();
    }
}
