package dev.hexaflow.adapters.nodes.template;

import com.hubspot.jinjava.tree.ExpressionNode;
import com.hubspot.jinjava.tree.Node;
import com.hubspot.jinjava.tree.TextNode;
import com.hubspot.jinjava.tree.parse.ExpressionToken;
import com.hubspot.jinjava.tree.parse.TextToken;
import dev.hexaflow.workflow.engine.RunStoppedException;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.TemplateRenderer.RenderLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A template that is only text and {@code {{ name }}} or {@code {{ name.field }}} expressions (most of Dify's),
 * rendered without Jinjava: the text as Jinjava's own parse of it gives it, each value printed as Jinjava prints a
 * string, number or boolean. Anything else (a filter, a tag, a comment, whitespace control, a keyword as a name)
 * is not plain, and a render whose values are not all strings, numbers or booleans reached through dicts that hold
 * the field is left to Jinjava ({@link #render} answers null), so that the two can never print differently.
 */
final class PlainTemplate {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Words JUEL or Jinjava read as something other than a variable, and Jinjava's own reserved name. */
    private static final Set<String> RESERVED = Set.of("true", "false", "null", "none", "None", "True", "False",
            "empty", "not", "and", "or", "div", "mod", "eq", "ne", "lt", "gt", "le", "ge", "instanceof", "is", "in",
            "if", "else", "loop", "super", "caller", "self", "varargs", "kwargs", "____int3rpr3t3r____");

    /** The template's parts in order: a text as a String, a variable as its path of names. */
    private final List<Object> parts;
    private final boolean keepTrailingNewline;

    private PlainTemplate(List<Object> parts, boolean keepTrailingNewline) {
        this.parts = parts;
        this.keepTrailingNewline = keepTrailingNewline;
    }

    /** The plain form of a template Jinjava parsed without error into {@code root}, if it is plain. */
    static Optional<PlainTemplate> of(String template, Node root, boolean keepTrailingNewline) {
        if (template.contains("{%") || template.contains("{#")) {
            return Optional.empty();
        }
        List<Object> parts = new ArrayList<>();
        for (Node node : root.getChildren()) {
            if (node.getMaster().isLeftTrim() || node.getMaster().isRightTrim() || !node.getChildren().isEmpty()) {
                return Optional.empty();
            }
            if (node instanceof TextNode && node.getMaster() instanceof TextToken text) {
                parts.add(text.output());
            } else if (node instanceof ExpressionNode && node.getMaster() instanceof ExpressionToken expression) {
                Optional<String[]> path = path(expression.getExpr());
                if (path.isEmpty()) {
                    return Optional.empty();
                }
                parts.add(path.get());
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(new PlainTemplate(List.copyOf(parts), keepTrailingNewline));
    }

    private static Optional<String[]> path(String expression) {
        String[] names = expression.split("\\.", -1);
        for (String name : names) {
            if (!NAME.matcher(name).matches() || RESERVED.contains(name)) {
                return Optional.empty();
            }
        }
        return Optional.of(names);
    }

    /**
     * The output, or null when a value is one Jinjava must print; an output over the limit and a stopping run end
     * the render as they end Jinjava's.
     */
    String render(Map<String, Object> variables, RenderLimits limits, StopSignal stop) {
        if (parts.isEmpty()) {
            return "";
        }
        if (stop.isStopped()) {
            throw new RunStoppedException();
        }
        String[] printed = new String[parts.size()];
        long length = 0;
        for (int i = 0; i < printed.length; i++) {
            Object part = parts.get(i);
            printed[i] = part instanceof String text ? text : printed(variables, (String[]) part);
            if (printed[i] == null) {
                return null;
            }
            length += printed[i].length();
        }
        // one trailing newline may yet be dropped
        if (length > limits.maxOutputLength() + 1L) {
            throw JinjavaTemplateRenderer.tooLong(limits);
        }
        StringBuilder output = new StringBuilder((int) length);
        for (String piece : printed) {
            output.append(piece);
        }
        if (!keepTrailingNewline && output.length() > 0 && output.charAt(output.length() - 1) == '\n') {
            output.setLength(output.length() - 1);
        }
        if (output.length() > limits.maxOutputLength()) {
            throw JinjavaTemplateRenderer.tooLong(limits);
        }
        return output.toString();
    }

    /** A value as Jinjava prints a string, number or boolean; null for anything else, or a field not there. */
    private static String printed(Map<String, Object> variables, String[] path) {
        Object value = variables.get(path[0]);
        for (int i = 1; i < path.length && value != null; i++) {
            value = value instanceof Map<?, ?> map && map.containsKey(path[i]) ? map.get(path[i]) : null;
        }
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        return null;
    }
}
