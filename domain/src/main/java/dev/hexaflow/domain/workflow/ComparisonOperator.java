package dev.hexaflow.domain.workflow;

import java.util.Optional;

/** The 21 comparison operators of Dify's conditions, by their DSL names (the numeric ones with ≠ ≥ ≤). */
public enum ComparisonOperator {
    CONTAINS("contains"),
    NOT_CONTAINS("not contains"),
    START_WITH("start with"),
    END_WITH("end with"),
    IS("is"),
    IS_NOT("is not"),
    EMPTY("empty"),
    NOT_EMPTY("not empty"),
    IN("in"),
    NOT_IN("not in"),
    ALL_OF("all of"),
    EQUAL("="),
    NOT_EQUAL("≠"),
    GREATER_THAN(">"),
    LESS_THAN("<"),
    GREATER_OR_EQUAL("≥"),
    LESS_OR_EQUAL("≤"),
    NULL("null"),
    NOT_NULL("not null"),
    EXISTS("exists"),
    NOT_EXISTS("not exists");

    private final String wireName;

    ComparisonOperator(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<ComparisonOperator> fromWireName(String name) {
        for (ComparisonOperator operator : values()) {
            if (operator.wireName.equals(name)) {
                return Optional.of(operator);
            }
        }
        return Optional.empty();
    }

    /** Negative operators: over an array of files, each file must pass, not just one. */
    public boolean isNegative() {
        return wireName.contains("not");
    }
}
