package dev.hexaflow.adapters.dsl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.hexaflow.workflow.port.out.WorkflowDslWriter;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.ConversationVariable;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.EnvironmentVariable;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes a workflow as Dify exports one (kind app, the DSL version it was read with), editor layout included. */
public final class YamlWorkflowDslWriter implements WorkflowDslWriter {

    private final ObjectMapper yaml = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build());

    @Override
    public String write(Workflow workflow) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("app", app(workflow.app()));
        document.put("dependencies", List.of());
        document.put("kind", "app");
        document.put("version", workflow.dslVersion());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("conversation_variables",
                workflow.conversationVariables().stream().map(this::conversationVariable).toList());
        body.put("environment_variables", workflow.environmentVariables().stream().map(this::variable).toList());
        body.put("features", workflow.features().asMap());
        Map<String, Object> graph = new LinkedHashMap<>();
        graph.put("edges", workflow.graph().edges().stream().map(edge -> edge(edge, workflow)).toList());
        graph.put("nodes", workflow.graph().nodes().stream().map(this::node).toList());
        body.put("graph", graph);
        document.put("workflow", body);
        try {
            return yaml.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a workflow's plain values always write as YAML", e);
        }
    }

    private static Map<String, Object> app(AppInfo app) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("description", app.description());
        map.put("icon", app.icon());
        if (app.iconType() != null) {
            map.put("icon_type", app.iconType());
        }
        map.put("icon_background", app.iconBackground());
        map.put("mode", app.mode());
        map.put("name", app.name());
        map.put("use_icon_as_answer_icon", app.useIconAsAnswerIcon());
        return map;
    }

    private Map<String, Object> variable(EnvironmentVariable variable) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("description", variable.description());
        map.put("id", variable.id());
        map.put("name", variable.name());
        map.put("selector", List.of("env", variable.name()));
        map.put("value", variable.value());
        map.put("value_type", variable.valueType());
        return map;
    }

    private Map<String, Object> conversationVariable(ConversationVariable variable) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("description", variable.description());
        map.put("id", variable.id());
        map.put("name", variable.name());
        map.put("selector", List.of("conversation", variable.name()));
        map.put("value", variable.value());
        map.put("value_type", variable.valueType());
        return map;
    }

    private static Map<String, Object> edge(Edge edge, Workflow workflow) {
        Node source = workflow.graph().node(edge.source()).orElseThrow();
        Node target = workflow.graph().node(edge.target()).orElseThrow();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("isInIteration", inContainer(source, workflow, NodeType.ITERATION));
        data.put("isInLoop", inContainer(source, workflow, NodeType.LOOP));
        data.put("sourceType", source.type().wireName());
        data.put("targetType", target.type().wireName());
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("data", data);
        map.put("id", edge.id());
        map.put("source", edge.source());
        map.put("sourceHandle", edge.sourceHandle());
        map.put("target", edge.target());
        map.put("targetHandle", "target");
        map.put("type", "custom");
        return map;
    }

    private static boolean inContainer(Node node, Workflow workflow, NodeType kind) {
        return node.parentId().flatMap(workflow.graph()::node).map(parent -> parent.type() == kind).orElse(false);
    }

    private Map<String, Object> node(Node node) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("data", node.data().asMap());
        map.put("id", node.id());
        node.parentId().ifPresent(parent -> map.put("parentId", parent));
        map.putAll(node.view().asMap());
        map.put("type", switch (node.type()) {
            case ITERATION_START -> "custom-iteration-start";
            case LOOP_START -> "custom-loop-start";
            default -> "custom";
        });
        return map;
    }

}
