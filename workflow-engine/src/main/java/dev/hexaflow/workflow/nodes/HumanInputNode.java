package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FormAnswer;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.workflow.engine.FormTokens;
import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PauseRequested;
import dev.hexaflow.workflow.engine.PreparedNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * human-input: the first time it runs it sends its form out and the run pauses; when the form is answered the run
 * goes on from here, this node's outputs being the person's inputs by name, the action chosen
 * ({@code __action_id}, its title as {@code __action_value}) and the content as filled ({@code __rendered_content}),
 * down the edge whose handle is the action's id; an expired form takes the {@code __timeout} edge instead.
 */
public final class HumanInputNode implements NodeExecutor {

    /** Dify's reference to a form field in the node's content. */
    private static final Pattern FIELD = Pattern.compile("\\{\\{#\\$output\\.([a-zA-Z_][a-zA-Z0-9_]{0,29})#\\}\\}");

    @Override
    public NodeType type() {
        return NodeType.HUMAN_INPUT;
    }

    @Override
    public PreparedNode prepare(Node node) {
        HumanInputSettings settings = HumanInputSettings.read(node.data());
        Set<String> outputs = new LinkedHashSet<>(settings.inputNames());
        outputs.addAll(List.of("__action_id", "__action_value", "__rendered_content"));
        return PreparedNode.of(settings.references(), Optional.of(outputs), context -> context.formAnswer()
                .map(answer -> resume(context, answer))
                .orElseThrow(() -> new PauseRequested(form(context, settings))));
    }

    /** The form as this run fills it in now: variables rendered, defaults resolved, its expiry from now. */
    private static HumanInputForm form(NodeContext context, HumanInputSettings settings) {
        VariablePool pool = context.pool();
        Map<String, String> defaults = new LinkedHashMap<>();
        for (DataTree input : settings.inputs()) {
            DataTree source = input.has("default") && input.get("default") != null ? input.tree("default") : null;
            String name = input.string("output_variable_name");
            if (source == null) {
                defaults.put(name, "");
            } else if ("variable".equals(source.string("type", "constant"))) {
                defaults.put(name, Values.text(pool.get(source.selector("selector")).orElse(null)));
            } else {
                defaults.put(name, Values.text(source.get("value")));
            }
        }
        Node node = context.node();
        return new HumanInputForm(context.newId(), FormTokens.next(),
                context.runId(), node.id(), node.title(), pool.render(settings.content()),
                settings.inputs().stream().map(DataTree::asMap).toList(), settings.actions(), defaults,
                context.now() + settings.timeoutSeconds(), settings.deliveryMethods());
    }

    private static NodeResult resume(NodeContext context, FormAnswer answer) {
        HumanInputForm form = answer.form();
        Map<String, Object> outputs = new LinkedHashMap<>();
        if (answer.timedOut()) {
            context.emitFormOutcome(new RunEvent.HumanInputFormTimeout(form.nodeId(), form.nodeTitle(),
                    form.expirationTime()));
            outputs.put("__action_id", "");
            outputs.put("__action_value", "");
            outputs.put("__rendered_content", form.formContent());
            return new NodeResult(Map.of(), null, outputs, FormAnswer.TIMEOUT_HANDLE, 0, null);
        }
        outputs.putAll(answer.inputs());
        String rendered = filled(form.formContent(), answer.inputs());
        String title = form.actionTitle(answer.actionId());
        outputs.put("__action_id", answer.actionId());
        outputs.put("__action_value", title);
        outputs.put("__rendered_content", rendered);
        context.emitFormOutcome(new RunEvent.HumanInputFormFilled(form.nodeId(), form.nodeTitle(), rendered,
                answer.actionId(), title, answer.inputs()));
        return new NodeResult(answer.inputs(), null, outputs, answer.actionId(), 0, null);
    }

    /** The content with each field's answer in its place: text as given, a file as [file], files as [N files]. */
    static String filled(String content, Map<String, Object> inputs) {
        Matcher matcher = FIELD.matcher(content);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            Object value = inputs.get(matcher.group(1));
            String shown = value == null ? "" : value instanceof List<?> files ? "[" + files.size() + " files]"
                    : value instanceof Map<?, ?> || value instanceof dev.hexaflow.domain.workflow.FileValue ? "[file]"
                    : Values.text(value);
            matcher.appendReplacement(out, Matcher.quoteReplacement(shown));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
