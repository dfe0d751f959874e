package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.trigger.WebhookSpec;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * trigger-webhook: the root of a run its URL started. The triggers context checked the request against the node
 * and put Dify's {@code webhook_data} (method, headers, query, body, files) under the node's id; the node answers
 * the parameters it declares (a header's {@code -} read as {@code _}), the whole request as {@code _webhook_raw},
 * and the system variables, as Dify's does.
 */
public final class TriggerWebhookNode implements NodeExecutor {

    @Override
    public NodeType type() {
        return NodeType.TRIGGER_WEBHOOK;
    }

    @Override
    public PreparedNode prepare(Node node) {
        WebhookSpec spec = WebhookSpec.of(node.data());
        Set<String> outputs = new LinkedHashSet<>();
        spec.headers().forEach(header -> outputs.add(WebhookSpec.headerOutputName(header.name())));
        spec.params().forEach(param -> outputs.add(param.name()));
        spec.body().forEach(field -> outputs.add(field.name()));
        outputs.add(WebhookSpec.RAW_OUTPUT);
        outputs.addAll(TriggerNode.systemNames());
        return PreparedNode.of(List.of(), Optional.of(outputs), context -> {
            Map<String, Object> given = context.pool().all(node.id());
            Object data = given.get("webhook_data");
            @SuppressWarnings("unchecked")
            Map<String, Object> request = data instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
            return NodeResult.of(given, TriggerNode.withSystem(context, spec.outputs(request)));
        });
    }
}
