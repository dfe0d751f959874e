package dev.hexaflow.domain.knowledge;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Dify's manual metadata filtering: conditions on a document's metadata, all of which ({@code and}) or any of which
 * ({@code or}) must hold for its chunks to be searched. An empty filter keeps every document.
 */
public record MetadataFilter(boolean all, List<Condition> conditions) {

    public static final MetadataFilter NONE = new MetadataFilter(true, List.of());

    public MetadataFilter {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }

    /** {@code logical_operator}: {@code and} or {@code or}. */
    public static MetadataFilter of(String logicalOperator, List<Condition> conditions) {
        if (logicalOperator != null && !logicalOperator.equals("and") && !logicalOperator.equals("or")) {
            throw new IllegalArgumentException("logical_operator must be and or or, was '" + logicalOperator + "'");
        }
        return new MetadataFilter(!"or".equals(logicalOperator), conditions);
    }

    public boolean keeps(Map<String, String> metadata) {
        if (conditions.isEmpty()) {
            return true;
        }
        return all ? conditions.stream().allMatch(c -> c.holdsFor(metadata))
                : conditions.stream().anyMatch(c -> c.holdsFor(metadata));
    }

    /** One condition: the metadata field's name, Dify's comparison operator, and the value compared with. */
    public record Condition(String name, Operator operator, String value) {
        public Condition {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            if (operator == null) {
                throw new IllegalArgumentException("comparison_operator must not be null");
            }
            value = value == null ? "" : value;
        }

        boolean holdsFor(Map<String, String> metadata) {
            String actual = metadata.get(name);
            return operator.holds(actual, value);
        }
    }

    /** Dify's comparison operators for metadata, by their wire names. */
    public enum Operator {
        CONTAINS("contains"), NOT_CONTAINS("not contains"), START_WITH("start with"), END_WITH("end with"),
        IS("is"), IS_NOT("is not"), EMPTY("empty"), NOT_EMPTY("not empty"), IN("in"), NOT_IN("not in"),
        EQUAL("="), NOT_EQUAL("≠"), GREATER(">"), LESS("<"), GREATER_OR_EQUAL("≥"), LESS_OR_EQUAL("≤"),
        BEFORE("before"), AFTER("after");

        private final String wireName;

        Operator(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }

        public static Optional<Operator> fromWireName(String name) {
            for (Operator operator : values()) {
                if (operator.wireName.equals(name)) {
                    return Optional.of(operator);
                }
            }
            return Optional.empty();
        }

        /** A field the document lacks holds only for {@code empty}, {@code not contains}, {@code is not}, {@code not in}. */
        boolean holds(String actual, String expected) {
            if (actual == null || actual.isEmpty()) {
                return this == EMPTY || this == NOT_CONTAINS || this == IS_NOT || this == NOT_IN || this == NOT_EQUAL;
            }
            return switch (this) {
                case CONTAINS -> actual.contains(expected);
                case NOT_CONTAINS -> !actual.contains(expected);
                case START_WITH -> actual.startsWith(expected);
                case END_WITH -> actual.endsWith(expected);
                case IS -> actual.equals(expected);
                case IS_NOT -> !actual.equals(expected);
                case EMPTY -> false;
                case NOT_EMPTY -> true;
                case IN -> List.of(expected.split("\\s*,\\s*")).contains(actual);
                case NOT_IN -> !List.of(expected.split("\\s*,\\s*")).contains(actual);
                case EQUAL, NOT_EQUAL, GREATER, LESS, GREATER_OR_EQUAL, LESS_OR_EQUAL, BEFORE, AFTER ->
                        compare(actual, expected);
            };
        }

        private boolean compare(String actual, String expected) {
            int order;
            try {
                order = Double.compare(Double.parseDouble(actual), Double.parseDouble(expected));
            } catch (NumberFormatException e) {
                order = actual.compareTo(expected);
            }
            return switch (this) {
                case EQUAL -> order == 0;
                case NOT_EQUAL -> order != 0;
                case GREATER, AFTER -> order > 0;
                case LESS, BEFORE -> order < 0;
                case GREATER_OR_EQUAL -> order >= 0;
                default -> order <= 0;
            };
        }
    }
}
