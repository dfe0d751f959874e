package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.TemplateRenderer;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * template-transform: renders its Jinja2 template with its named variables into {@code output}, within the run's
 * template limits (output length, loop iterations) and until the run stops. The template is compiled when the
 * workflow is prepared.
 */
public final class TemplateTransformNode implements NodeExecutor {

    private final TemplateRenderer renderer;

    public TemplateTransformNode(TemplateRenderer renderer) {
        this.renderer = renderer;
    }

    @Override
    public NodeType type() {
        return NodeType.TEMPLATE_TRANSFORM;
    }

    @Override
    public PreparedNode prepare(Node node) {
        // compiled once for every run of the prepared workflow; a broken template still fails each run
        TemplateRenderer.CompiledTemplate template = renderer.compile(node.data().string("template", ""));
        Map<String, VariableSelector> variables = new LinkedHashMap<>();
        for (DataTree variable : node.data().trees("variables")) {
            variables.put(variable.string("variable"), variable.selector("value_selector"));
        }
        return PreparedNode.of(new ArrayList<>(variables.values()), Optional.of(Set.of("output")), context -> {
            Map<String, Object> inputs = new LinkedHashMap<>();
            variables.forEach((name, selector) -> inputs.put(name, context.pool().get(selector).orElse(null)));
            String output;
            try {
                output = template.render(inputs, context.settings().templateLimits(), context);
            } catch (TemplateRenderer.TemplateException e) {
                throw new NodeFailure("TemplateTransformNodeError", e.getMessage(), e);
            }
            return NodeResult.of(inputs, Map.of("output", output));
        });
    }
}
