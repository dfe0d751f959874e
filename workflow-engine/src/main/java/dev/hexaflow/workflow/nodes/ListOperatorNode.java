package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * list-operator: over an array of strings, numbers or files, filters, extracts one item by its 1-based serial,
 * orders, then keeps the first N, as Dify does in that order; answers {@code result}, {@code first_record} and
 * {@code last_record}. Its filters are Dify's list filters, not the if-else operators: strings take contains,
 * start with, end with, is, is not, in, not in, empty, not empty; numbers the six comparisons; files compare one
 * attribute.
 */
public final class ListOperatorNode implements NodeExecutor {

    private static final Set<String> FILE_TEXT_KEYS = Set.of("name", "extension", "mime_type", "url");
    private static final Set<String> FILE_SET_KEYS = Set.of("type", "transfer_method");

    @Override
    public NodeType type() {
        return NodeType.LIST_OPERATOR;
    }

    private record Filter(String key, String operator, Object value) {
    }

    /** What a node's data says, read once when the workflow is prepared. */
    private record ListOperatorSettings(VariableSelector variable, List<Filter> filters, Optional<String> serial,
            boolean order, boolean descending, String orderKey, Optional<Long> size) {

        static ListOperatorSettings read(DataTree data) {
            VariableSelector variable = data.selector("variable");
            DataTree filterBy = data.tree("filter_by");
            List<Filter> filters = new ArrayList<>();
            if (filterBy.bool("enabled", false)) {
                for (DataTree condition : filterBy.trees("conditions")) {
                    filters.add(new Filter(condition.string("key", ""), condition.string("comparison_operator"),
                            condition.get("value")));
                }
            }
            DataTree extractBy = data.tree("extract_by");
            Optional<String> serial = extractBy.bool("enabled", false)
                    ? Optional.of(extractBy.string("serial", "1")) : Optional.empty();
            DataTree orderBy = data.tree("order_by");
            boolean order = orderBy.bool("enabled", false);
            boolean descending = orderBy.string("value", "asc").equals("desc");
            String orderKey = orderBy.string("key", "");
            DataTree limit = data.tree("limit");
            Optional<Long> size = limit.bool("enabled", false) ? Optional.of(limit.longValue("size", 1))
                    : Optional.empty();
            return new ListOperatorSettings(variable, filters, serial, order, descending, orderKey, size);
        }

        List<VariableSelector> references() {
            List<VariableSelector> references = new ArrayList<>(List.of(variable));
            filters.stream().filter(f -> f.value() instanceof String).forEach(f ->
                    references.addAll(VariablePool.references((String) f.value())));
            serial.ifPresent(s -> references.addAll(VariablePool.references(s)));
            return references;
        }
    }

    @Override
    public PreparedNode prepare(Node node) {
        ListOperatorSettings settings = ListOperatorSettings.read(node.data());
        return PreparedNode.of(settings.references(), Optional.of(Set.of("result", "first_record", "last_record")),
                context -> run(settings, context.pool()));
    }

    private static NodeResult run(ListOperatorSettings settings, VariablePool pool) {
        VariableSelector variable = settings.variable();
        if (!pool.has(variable.nodeId(), variable.variable())) {
            throw new NodeFailure("ListOperatorError", "Variable not found for selector: " + variable, null);
        }
        Object value = pool.get(variable).orElse(null);
        List<Object> items = new ArrayList<>();
        if (value instanceof List<?> list) {
            items.addAll(list);
        } else if (value != null && !"".equals(value)) {
            throw new NodeFailure("ListOperatorError", "Variable " + variable
                    + " is not an ArrayFileSegment, ArrayNumberSegment or ArrayStringSegment", null);
        }
        Map<String, Object> inputs = Map.of("variable", items);
        if (!items.isEmpty()) {
            items = operated(settings, items, pool);
        }
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("result", new ArrayList<>(items));
        outputs.put("first_record", items.isEmpty() ? null : items.get(0));
        outputs.put("last_record", items.isEmpty() ? null : items.get(items.size() - 1));
        return NodeResult.of(inputs, outputs);
    }

    /** The items filtered, extracted, ordered and limited, in Dify's order; the filters see the first item's kind. */
    private static List<Object> operated(ListOperatorSettings settings, List<Object> items, VariablePool pool) {
        for (Filter filter : settings.filters()) {
            items = items.stream().filter(predicate(filter, items.get(0), pool)).toList();
            if (items.isEmpty()) {
                break;
            }
        }
        if (settings.serial().isPresent() && !items.isEmpty()) {
            items = List.of(extract(pool.render(settings.serial().get()), items));
        }
        if (settings.order()) {
            items = new ArrayList<>(items);
            Comparator<Object> comparator = comparator(settings.orderKey());
            items.sort(settings.descending() ? comparator.reversed() : comparator);
        }
        if (settings.size().isPresent()) {
            items = items.subList(0, (int) Math.min(items.size(), Math.max(0, settings.size().get())));
        }
        return items;
    }

    private static Object extract(String serialText, List<Object> items) {
        int serial;
        try {
            serial = Integer.parseInt(serialText.strip());
        } catch (NumberFormatException e) {
            throw new NodeFailure("ListOperatorError", "invalid literal for int() with base 10: '" + serialText + "'",
                    e);
        }
        if (serial < 1) {
            throw new NodeFailure("ListOperatorError", "Invalid serial index: must be >= 1, got " + serial, null);
        }
        if (serial > items.size()) {
            throw new NodeFailure("InvalidKeyError", "Invalid serial index: must be <= " + items.size() + ", got "
                    + serial, null);
        }
        return items.get(serial - 1);
    }

    private static Predicate<Object> predicate(Filter filter, Object sample, VariablePool pool) {
        Object expected = filter.value() instanceof String text ? pool.render(text) : filter.value();
        if (sample instanceof String) {
            if (!(filter.value() instanceof String)) {
                throw new NodeFailure("InvalidFilterValueError", "Invalid filter value: " + filter.value(), null);
            }
            return text(filter.operator(), (String) expected);
        }
        if (Values.isNumber(sample)) {
            double number = number(expected);
            return item -> Values.isNumber(item) && compareNumber(filter.operator(), Values.toDouble(item), number);
        }
        if (sample instanceof FileValue) {
            String key = filter.key();
            if (FILE_TEXT_KEYS.contains(key) && expected instanceof String text) {
                Predicate<Object> test = text(filter.operator(), text);
                return item -> test.test(fileText((FileValue) item, key));
            }
            if (FILE_SET_KEYS.contains(key) && (expected instanceof List<?> || expected instanceof String)) {
                List<?> set = expected instanceof List<?> list ? list : List.of(expected);
                boolean in = switch (filter.operator()) {
                    case "in" -> true;
                    case "not in" -> false;
                    default -> throw new NodeFailure("InvalidConditionError", "Invalid condition: "
                            + filter.operator(), null);
                };
                return item -> set.contains(fileText((FileValue) item, key)) == in;
            }
            if (key.equals("size")) {
                double number = number(expected);
                return item -> compareNumber(filter.operator(), ((FileValue) item).size(), number);
            }
            throw new NodeFailure("InvalidKeyError", "Invalid key: " + key, null);
        }
        throw new NodeFailure("ListOperatorError", "list items of type " + Values.typeName(sample)
                + " cannot be filtered", null);
    }

    private static Predicate<Object> text(String operator, String value) {
        return switch (operator) {
            case "contains" -> item -> item instanceof String s && s.contains(value);
            case "not contains" -> item -> !(item instanceof String s && s.contains(value));
            case "start with" -> item -> item instanceof String s && s.startsWith(value);
            case "end with" -> item -> item instanceof String s && s.endsWith(value);
            case "is" -> value::equals;
            case "is not" -> item -> !value.equals(item);
            case "in" -> item -> item instanceof String s && value.contains(s);
            case "not in" -> item -> !(item instanceof String s && value.contains(s));
            case "empty" -> ""::equals;
            case "not empty" -> item -> !"".equals(item);
            default -> throw new NodeFailure("InvalidConditionError", "Invalid condition: " + operator, null);
        };
    }

    private static boolean compareNumber(String operator, double item, double value) {
        return switch (operator) {
            case "=" -> item == value;
            case "≠" -> item != value;
            case "<" -> item < value;
            case "≤" -> item <= value;
            case ">" -> item > value;
            case "≥" -> item >= value;
            default -> throw new NodeFailure("InvalidConditionError", "Invalid condition: " + operator, null);
        };
    }

    private static double number(Object value) {
        try {
            return value instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(value).strip());
        } catch (NumberFormatException e) {
            throw new NodeFailure("InvalidFilterValueError", "could not convert string to float: '" + value + "'", e);
        }
    }

    private static String fileText(FileValue file, String key) {
        return switch (key) {
            case "name" -> file.filename() == null ? "" : file.filename();
            case "url" -> file.remoteUrl() == null ? "" : file.remoteUrl();
            default -> file.attribute(key).map(String::valueOf).orElse("");
        };
    }

    private static Comparator<Object> comparator(String key) {
        return (a, b) -> {
            if (a instanceof FileValue fa && b instanceof FileValue fb) {
                if (key.equals("size")) {
                    return Long.compare(fa.size(), fb.size());
                }
                if (!FILE_TEXT_KEYS.contains(key) && !FILE_SET_KEYS.contains(key)) {
                    throw new NodeFailure("InvalidKeyError", "Invalid order key: " + key, null);
                }
                return fileText(fa, key).compareTo(fileText(fb, key));
            }
            if (Values.isNumber(a) && Values.isNumber(b)) {
                return Double.compare(Values.toDouble(a), Values.toDouble(b));
            }
            return String.valueOf(a).compareTo(String.valueOf(b));
        };
    }
}
