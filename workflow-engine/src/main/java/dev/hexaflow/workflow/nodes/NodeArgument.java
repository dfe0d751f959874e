package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One argument a node passes on (to a tool, or fixed by an agent for its tool), as the DSL gives it and read
 * once: a value as it is, a text whose {@code {{#node.var#}}} references are rendered, or a variable.
 */
sealed interface NodeArgument {

    Object resolve(VariablePool pool);

    /** Every variable the arguments read, for the check that each points at something. */
    static List<VariableSelector> references(Collection<NodeArgument> arguments) {
        List<VariableSelector> references = new ArrayList<>();
        for (NodeArgument argument : arguments) {
            if (argument instanceof Template template) {
                references.addAll(VariablePool.references(template.text()));
            } else if (argument instanceof Variable variable) {
                references.add(variable.selector());
            }
        }
        return references;
    }

    /** A value given as it is: a text is a template, anything else passes unchanged. */
    static NodeArgument given(Object value) {
        return value instanceof String text ? new Template(text) : new Value(value);
    }

    /** {@code constant} values that are not text (numbers, booleans, lists) pass as they are. */
    record Value(Object value) implements NodeArgument {
        @Override
        public Object resolve(VariablePool pool) {
            return value;
        }
    }

    /** {@code mixed} (and {@code constant}) text: its {@code {{#node.var#}}} references rendered as text. */
    record Template(String text) implements NodeArgument {
        @Override
        public Object resolve(VariablePool pool) {
            return pool.render(text);
        }
    }

    /** {@code variable}: the value itself, or absent when nothing holds it. */
    record Variable(VariableSelector selector) implements NodeArgument {
        @Override
        public Object resolve(VariablePool pool) {
            return pool.get(selector).orElse(null);
        }
    }
}
