package dev.hexaflow.domain.workflow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;


/**
 * Evaluates conditions as Dify's condition processor does: expected text is rendered for references first,
 * numeric operators convert the expected value to the actual value's kind (integer or float), evaluation stops
 * at the first result that decides the group, and a missing variable is an error.
 */
public final class Conditions {

    private Conditions() {
    }

    /** Evaluates the group; answers each evaluated result in order, and the final one. */
    public static Outcome evaluate(List<Condition> conditions, Condition.LogicalOperator operator,
            VariablePool pool) {
        List<Boolean> results = new ArrayList<>();
        for (Condition condition : conditions) {
            boolean result = evaluate(condition, pool);
            results.add(result);
            if (operator == Condition.LogicalOperator.AND ? !result : result) {
                return new Outcome(results, result);
            }
        }
        boolean all = operator == Condition.LogicalOperator.AND;
        return new Outcome(results, all ? !results.contains(false) : results.contains(true));
    }

    /** The results evaluated before the group was decided, and the decision. */
    public record Outcome(List<Boolean> results, boolean result) {
    }

    static boolean evaluate(Condition condition, VariablePool pool) {
        if (!pool.has(condition.variable().nodeId(), condition.variable().variable())) {
            throw new ConditionException("Variable " + condition.variable() + " not found");
        }
        Object actual = pool.get(condition.variable()).orElse(null);
        ComparisonOperator operator = condition.operator();
        if (isFileList(actual) && (operator == ComparisonOperator.CONTAINS
                || operator == ComparisonOperator.NOT_CONTAINS || operator == ComparisonOperator.ALL_OF)) {
            if (condition.subConditions().isEmpty()) {
                throw new ConditionException("Sub variable is required");
            }
            return files((List<?>) actual, condition);
        }
        if (operator == ComparisonOperator.EXISTS || operator == ComparisonOperator.NOT_EXISTS) {
            return compare(actual, operator, null);
        }
        Object expected = condition.expected();
        if (expected instanceof String text) {
            expected = pool.render(text);
        }
        if (isBooleanValue(actual) && expected != null) {
            expected = expected instanceof List<?> list
                    ? list.stream().map(Conditions::toBool).toList()
                    : toBool(expected);
        }
        return compare(actual, operator, expected);
    }

    private static boolean isFileList(Object value) {
        return value instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(FileValue.class::isInstance);
    }

    private static boolean isBooleanValue(Object value) {
        return value instanceof Boolean
                || value instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(Boolean.class::isInstance);
    }

    private static boolean files(List<?> files, Condition condition) {
        List<Boolean> results = new ArrayList<>();
        for (Condition.SubCondition sub : condition.subConditions()) {
            Object expected = sub.expected();
            boolean extension = sub.key().equals("extension");
            if (extension && expected instanceof String s && !s.isEmpty() && !s.startsWith(".")) {
                expected = "." + s;
            }
            List<Boolean> each = new ArrayList<>();
            for (Object file : files) {
                Object value = ((FileValue) file).attribute(sub.key()).orElse(null);
                if (extension && value instanceof String s && !s.isEmpty() && !s.startsWith(".")) {
                    value = "." + s;
                }
                each.add(compare(value, sub.operator(), expected));
            }
            results.add(sub.operator().isNegative() ? !each.contains(false) : each.contains(true));
        }
        return condition.subOperator() == Condition.LogicalOperator.AND ? !results.contains(false)
                : results.contains(true);
    }

    /** One comparison of an actual value with an expected one. */
    public static boolean compare(Object actual, ComparisonOperator operator, Object expected) {
        return switch (operator) {
            case CONTAINS -> truthy(actual) && in(expected, containerOf(actual));
            case NOT_CONTAINS -> !truthy(actual) || !in(expected, containerOf(actual));
            case START_WITH -> truthy(actual) && string(actual).startsWith(String.valueOf(expected));
            case END_WITH -> truthy(actual) && string(actual).endsWith(String.valueOf(expected));
            case IS -> actual != null && isEqualTextOrBool(actual, expected);
            case IS_NOT -> actual != null && !isEqualTextOrBool(actual, expected);
            case EMPTY -> !truthy(actual);
            case NOT_EMPTY -> truthy(actual);
            case EQUAL -> actual != null && numericEquals(actual, expected);
            case NOT_EQUAL -> actual != null && !numericEquals(actual, expected);
            case GREATER_THAN -> actual != null && order(actual, expected) > 0;
            case LESS_THAN -> actual != null && order(actual, expected) < 0;
            case GREATER_OR_EQUAL -> actual != null && order(actual, expected) >= 0;
            case LESS_OR_EQUAL -> actual != null && order(actual, expected) <= 0;
            case NULL, NOT_EXISTS -> actual == null;
            case NOT_NULL, EXISTS -> actual != null;
            case IN -> truthy(actual) && in(actual, listOf(expected));
            case NOT_IN -> !truthy(actual) || !in(actual, listOf(expected));
            case ALL_OF -> truthy(actual) && expected instanceof List<?> all
                    && all.stream().allMatch(item -> in(item, containerOf(actual)));
        };
    }

    /** Python's truthiness: None, "", 0, 0.0, False, [] and {} are false. */
    public static boolean truthy(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof String s) {
            return !s.isEmpty();
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (value instanceof List<?> list) {
            return !list.isEmpty();
        }
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        return true;
    }

    private static Object containerOf(Object actual) {
        if (!(actual instanceof String) && !(actual instanceof List<?>)) {
            throw new ConditionException("Invalid actual value type: string or array");
        }
        return actual;
    }

    private static List<?> listOf(Object expected) {
        if (!(expected instanceof List<?> list)) {
            throw new ConditionException("Invalid expected value type: array");
        }
        return list;
    }

    /** Python's {@code item in container}: substring for text, equal element for lists. */
    private static boolean in(Object item, Object container) {
        if (container instanceof String text) {
            if (!(item instanceof String s)) {
                throw new ConditionException("'in <string>' requires string as left operand, not "
                        + Values.typeName(item));
            }
            return text.contains(s);
        }
        for (Object element : (List<?>) container) {
            if (pythonEquals(element, item)) {
                return true;
            }
        }
        return false;
    }

    private static boolean pythonEquals(Object a, Object b) {
        if (Values.isNumber(a) && Values.isNumber(b)) {
            return Values.toDouble(a) == Values.toDouble(b);
        }
        return Objects.equals(a, b);
    }

    private static String string(Object actual) {
        if (!(actual instanceof String s)) {
            throw new ConditionException("Invalid actual value type: string");
        }
        return s;
    }

    private static boolean isEqualTextOrBool(Object actual, Object expected) {
        if (!(actual instanceof String) && !(actual instanceof Boolean)) {
            throw new ConditionException("Invalid actual value type: string or boolean");
        }
        return actual.equals(expected);
    }

    private static boolean numericEquals(Object actual, Object expected) {
        if (actual instanceof Boolean b) {
            return b == truthy(expected);
        }
        if (!Values.isNumber(actual)) {
            throw new ConditionException("Invalid actual value type: number or boolean");
        }
        return order(actual, expected) == 0;
    }

    private static int order(Object actual, Object expected) {
        if (actual instanceof Boolean b) {
            actual = b ? 1L : 0L;
        }
        if (!Values.isNumber(actual)) {
            throw new ConditionException("Invalid actual value type: number");
        }
        if (actual instanceof Long whole) {
            return Long.compare(whole, toLong(expected));
        }
        return Double.compare(Values.toDouble(actual), toDouble(expected));
    }

    private static long toLong(Object expected) {
        if (expected instanceof Number n) {
            return n.longValue();
        }
        if (expected instanceof Boolean b) {
            return b ? 1 : 0;
        }
        String text = expected == null ? "None" : expected.toString().trim();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConditionException("invalid literal for int() with base 10: '" + text + "'");
        }
    }

    private static double toDouble(Object expected) {
        if (expected instanceof Number n) {
            return n.doubleValue();
        }
        String text = expected == null ? "None" : expected.toString().trim();
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new ConditionException("could not convert string to float: '" + text + "'");
        }
    }

    private static Object toBool(Object value) {
        if (value instanceof Boolean) {
            return value;
        }
        if (value instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (value instanceof String s) {
            String t = s.trim();
            if (t.equals("true") || t.equals("false")) {
                return Boolean.parseBoolean(t);
            }
            try {
                return Double.parseDouble(t) != 0;
            } catch (NumberFormatException e) {
                throw new ConditionException("unexpected value: type=<class 'str'>, value=" + s);
            }
        }
        throw new ConditionException("unexpected value: " + value);
    }

}
