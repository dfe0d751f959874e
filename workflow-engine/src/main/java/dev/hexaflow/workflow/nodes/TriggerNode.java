package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * trigger-schedule and trigger-plugin, the roots a run starts from by itself. What started the run (a plugin's
 * event, for a plugin trigger; nothing, for a schedule) was put in the pool under the node's id before the run;
 * the node answers it, with the run's system variables as {@code sys.*} outputs, as Dify's trigger nodes do.
 * Settings a node needs to be started (a schedule's cron, a webhook's parameters) are the triggers context's.
 */
public final class TriggerNode implements NodeExecutor {

    /** The system variables a trigger node repeats among its outputs, as Dify's do. */
    static final List<String> SYSTEM = List.of("user_id", "app_id", "workflow_id", "workflow_run_id", "timestamp",
            "files");

    private final NodeType type;

    public TriggerNode(NodeType type) {
        if (!type.isTrigger() || type == NodeType.TRIGGER_WEBHOOK) {
            throw new IllegalArgumentException(type.wireName() + " is not a schedule or plugin trigger");
        }
        this.type = type;
    }

    @Override
    public NodeType type() {
        return type;
    }

    @Override
    public PreparedNode prepare(Node node) {
        Optional<Set<String>> outputs = type == NodeType.TRIGGER_SCHEDULE ? Optional.of(systemNames())
                : Optional.empty(); // a plugin's event variables are the plugin's to name
        return PreparedNode.of(List.of(), outputs, context -> {
            Map<String, Object> given = context.pool().all(node.id());
            Map<String, Object> outputsNow = withSystem(context, given);
            return NodeResult.of(given, outputsNow);
        });
    }

    @Override
    public List<String> warnings(Node node) {
        if (type != NodeType.TRIGGER_PLUGIN) {
            return List.of();
        }
        return List.of("plugin trigger " + node.label() + " (" + node.data().string("plugin_id", "?") + ", event '"
                + node.data().string("event_name", "?") + "') runs only when an operator binds it to a webhook: "
                + "hexaflow triggers bind APP_ID " + node.id());
    }

    static Set<String> systemNames() {
        Set<String> names = new LinkedHashSet<>();
        SYSTEM.forEach(name -> names.add("sys." + name));
        return names;
    }

    /** The outputs, and the run's system variables under {@code sys.*} keys. */
    static Map<String, Object> withSystem(NodeContext context, Map<String, Object> outputs) {
        Map<String, Object> all = new LinkedHashMap<>(outputs);
        for (String name : SYSTEM) {
            all.put("sys." + name, context.pool().get(VariableSelector.of("sys", name)).orElse(null));
        }
        return all;
    }
}
