package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * question-classifier: asks the model which of its classes the query belongs to and follows the edges of that
 * class's id; an answer that names no class takes the first class, as Dify does. Outputs {@code class_name},
 * {@code class_id} and {@code usage}.
 */
public final class QuestionClassifierNode implements NodeExecutor {

    private final ModelProvider models;

    public QuestionClassifierNode(ModelProvider models) {
        this.models = models;
    }

    @Override
    public NodeType type() {
        return NodeType.QUESTION_CLASSIFIER;
    }

    @Override
    public void checkReady(Node node) {
        ModelNodes.checkReady(models);
    }

    private record Category(String id, String name) {
    }

    @Override
    public PreparedNode prepare(Node node) {
        DataTree data = node.data();
        DataTree model = data.tree("model");
        VariableSelector query = data.selector("query_variable_selector");
        List<Category> classes = new ArrayList<>();
        for (DataTree item : data.trees("classes")) {
            classes.add(new Category(item.string("id"), item.string("name", "")));
        }
        if (classes.isEmpty()) {
            throw new InvalidNodeDataException("classes", "must name at least one class");
        }
        String instruction = data.string("instruction", "");
        Optional<ChatMemory> memory = ChatMemory.of(data);
        List<VariableSelector> references = new ArrayList<>(List.of(query));
        references.addAll(VariablePool.references(instruction));
        return PreparedNode.of(references, Optional.of(Set.of("class_name", "class_id", "usage")), ctx -> {
            String text = Values.text(ctx.pool().get(query).orElse(null));
            List<Map<String, Object>> listed = new ArrayList<>();
            for (Category category : classes) {
                listed.add(Map.of("category_id", category.id(), "category_name", category.name()));
            }
            String system = "You classify text into exactly one category. The categories are: "
                    + Values.json(listed) + "."
                    + (instruction.isBlank() ? "" : " Follow these instructions: "
                    + ctx.pool().render(instruction))
                    + " Answer with one JSON object and nothing else: "
                    + "{\"category_id\": \"...\", \"category_name\": \"...\"}."
                    + ChatMemory.histories(memory, ctx.chatTurn());
            long started = System.nanoTime();
            ChatResult result = ModelNodes.chat(models, new ChatRequest(model.string("provider", ""),
                    model.string("name"), List.of(ChatMessage.of("system", system), ChatMessage.of("user", text)),
                    model.tree("completion_params").asMap(), List.of()), piece -> { }, ctx);
            Category chosen = choose(classes, result.text());
            Map<String, Object> usage = ModelNodes.usage(result.usage(), (System.nanoTime() - started) / 1e9);
            Map<String, Object> outputs = new LinkedHashMap<>();
            outputs.put("class_name", chosen.name());
            outputs.put("class_id", chosen.id());
            outputs.put("usage", usage);
            Map<String, Object> process = new LinkedHashMap<>();
            process.put("model_provider", model.string("provider", ""));
            process.put("model_name", model.string("name"));
            process.put("answer", result.text());
            return new NodeResult(Map.of("query", text), process, outputs, chosen.id(),
                    result.usage().totalTokens(), null);
        });
    }

    private static Category choose(List<Category> classes, String answer) {
        Map<String, Object> json = ModelNodes.jsonObject(answer);
        Object id = json.get("category_id");
        Object name = json.get("category_name");
        for (Category category : classes) {
            if (id != null && category.id().equals(String.valueOf(id))) {
                return category;
            }
        }
        for (Category category : classes) {
            if (name != null && category.name().equals(String.valueOf(name))
                    || json.isEmpty() && answer.strip().equals(category.name())) {
                return category;
            }
        }
        return classes.get(0);
    }
}
