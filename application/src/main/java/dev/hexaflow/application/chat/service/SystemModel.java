package dev.hexaflow.application.chat.service;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The model that names conversations and suggests questions, where Dify asks the workspace's default model: the
 * model of the chatflow's first LLM node (the one its author chose), else the one the server was given. A
 * failed call answers nothing, as Dify then keeps the name or suggests nothing.
 */
public final class SystemModel {

    private final ModelProvider models;
    private final String fallbackProvider;
    private final String fallbackModel;

    public SystemModel(ModelProvider models, String fallbackProvider, String fallbackModel) {
        this.models = models;
        this.fallbackProvider = fallbackProvider;
        this.fallbackModel = fallbackModel;
    }

    /** The model's whole answer to one user message, or empty when no model is set up or the call failed. */
    Optional<String> ask(Workflow workflow, String prompt, Map<String, Object> parameters) {
        if (!models.isConfigured()) {
            return Optional.empty();
        }
        DataTree model = workflow.graph().nodes().stream()
                .filter(node -> node.type() == NodeType.LLM)
                .map(Node::data)
                .map(data -> data.tree("model"))
                .filter(tree -> !tree.string("name", "").isEmpty())
                .findFirst()
                .orElse(null);
        String provider = model == null ? fallbackProvider : model.string("provider", fallbackProvider);
        String name = model == null ? fallbackModel : model.string("name");
        try {
            ModelProvider.ChatResult result = models.chat(new ChatRequest(provider, name,
                    List.of(ChatMessage.of("user", prompt)), parameters, List.of()), text -> { },
                    StopSignal.NEVER);
            return Optional.ofNullable(result.text());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
