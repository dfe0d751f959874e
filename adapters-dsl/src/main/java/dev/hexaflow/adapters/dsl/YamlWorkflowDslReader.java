package dev.hexaflow.adapters.dsl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.hexaflow.workflow.port.out.WorkflowDslReader;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.ConversationVariable;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.EnvironmentVariable;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads Dify app DSL YAML of versions 0.1.0 to 0.7.x, and files without kind or version (read as 0.1.0). Notes
 * are skipped; keys only the editor uses are kept as the node's view. Every structural problem is listed. A chat,
 * agent-chat or completion app has no graph: its {@code model_config} is read into the graph it implies.
 */
public final class YamlWorkflowDslReader implements WorkflowDslReader {

    /** Top-level node keys that are not editor layout. */
    private static final List<String> NODE_KEYS = List.of("id", "type", "data", "parentId");
    static final String NOTE_TYPE = "custom-note";

    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());

    @Override
    public Workflow read(byte[] dsl) {
        Map<String, Object> document = parse(dsl);
        List<WorkflowProblem> problems = new ArrayList<>();
        AppInfo app = app(document.get("app"), problems);
        // Dify's import reads a missing or empty version as 0.1.0, and any kind as app.
        String version = text(document.get("version"));
        version = version == null || version.isBlank() ? "0.1.0" : version;
        if (app.isModelConfigApp()) {
            return fromModelConfig(app, version, document, problems);
        }
        Map<String, Object> workflow = map(document.get("workflow"));
        if (workflow == null) {
            problems.add(WorkflowProblem.ofFile("workflow is missing or is not an object"));
            throw new InvalidWorkflowException(problems);
        }
        Map<String, Object> graph = map(workflow.get("graph"));
        if (graph == null) {
            problems.add(WorkflowProblem.ofFile("workflow.graph is missing or is not an object"));
            throw new InvalidWorkflowException(problems);
        }
        List<Node> nodes = nodes(graph.get("nodes"), problems);
        List<Edge> edges = edges(graph.get("edges"), problems);
        List<EnvironmentVariable> environment = environment(workflow.get("environment_variables"), problems);
        List<ConversationVariable> conversation = conversation(workflow.get("conversation_variables"), problems);
        Map<String, Object> features = map(workflow.get("features"));
        if (!problems.isEmpty()) {
            throw new InvalidWorkflowException(problems);
        }
        return new Workflow(app, version, new Graph(nodes, edges),
                DataTree.of(features == null ? Map.of() : features), environment, conversation);
    }

    /** A chat, agent-chat or completion app: the graph its model_config implies (see {@link ModelConfigGraph}). */
    private static Workflow fromModelConfig(AppInfo app, String version, Map<String, Object> document,
            List<WorkflowProblem> problems) {
        Map<String, Object> config = map(document.get("model_config"));
        if (config == null) {
            problems.add(WorkflowProblem.ofFile("model_config is missing or is not an object: a " + app.mode()
                    + " app is described by its model_config"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidWorkflowException(problems);
        }
        return new Workflow(app, version, ModelConfigGraph.of(app.mode(), config),
                DataTree.of(ModelConfigGraph.features(config)), List.of());
    }

    private Map<String, Object> parse(byte[] dsl) {
        Object document;
        try {
            document = yaml.readValue(dsl, Object.class);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
            throw new InvalidWorkflowException(List.of(WorkflowProblem.ofFile(
                    "the file is not valid YAML" + where + ": " + e.getOriginalMessage())));
        } catch (IOException e) {
            throw new InvalidWorkflowException(List.of(WorkflowProblem.ofFile("the file cannot be read: "
                    + e.getMessage())));
        }
        Map<String, Object> map = map(document);
        if (map == null) {
            throw new InvalidWorkflowException(List.of(WorkflowProblem.ofFile(
                    "the file is not a Dify app DSL: it must be a YAML mapping with app and workflow")));
        }
        return map;
    }

    private static AppInfo app(Object value, List<WorkflowProblem> problems) {
        Map<String, Object> app = map(value);
        if (app == null) {
            problems.add(WorkflowProblem.ofFile("app is missing or is not an object"));
            return new AppInfo("", AppInfo.WORKFLOW_MODE, null, null, null, "", false);
        }
        String mode = text(app.get("mode"));
        if (mode == null || mode.isEmpty()) {
            problems.add(WorkflowProblem.ofFile("app.mode is missing"));
        } else if (!mode.equals(AppInfo.WORKFLOW_MODE) && !mode.equals(AppInfo.ADVANCED_CHAT_MODE)
                && !AppInfo.MODEL_CONFIG_MODES.contains(mode)) {
            problems.add(WorkflowProblem.ofFile("app.mode is '" + mode + "'; Hexaflow runs workflow, "
                    + "advanced-chat, chat, agent-chat and completion apps"));
        }
        return new AppInfo(text(app.get("name")), mode, text(app.get("icon")), text(app.get("icon_type")),
                text(app.get("icon_background")), text(app.get("description")),
                Boolean.TRUE.equals(app.get("use_icon_as_answer_icon")));
    }

    private static List<Node> nodes(Object value, List<WorkflowProblem> problems) {
        List<Node> nodes = new ArrayList<>();
        if (!(value instanceof List<?> list)) {
            problems.add(WorkflowProblem.ofFile("workflow.graph.nodes is missing or is not a list"));
            return nodes;
        }
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> node = map(list.get(i));
            if (node == null) {
                problems.add(WorkflowProblem.ofFile("workflow.graph.nodes[" + i + "] is not an object"));
                continue;
            }
            if (NOTE_TYPE.equals(text(node.get("type")))) {
                continue;
            }
            String id = text(node.get("id"));
            Map<String, Object> data = map(node.get("data"));
            if (id == null || id.isEmpty()) {
                problems.add(WorkflowProblem.ofFile("workflow.graph.nodes[" + i + "] has no id"));
                continue;
            }
            if (data == null) {
                problems.add(new WorkflowProblem(id, null, "the node has no data"));
                continue;
            }
            String title = text(data.get("title"));
            String typeName = text(data.get("type"));
            Optional<NodeType> type = NodeType.fromWireName(typeName == null ? "" : typeName);
            if (type.isEmpty()) {
                problems.add(new WorkflowProblem(id, title, "unknown node type '" + typeName + "'; remove the node or "
                        + "replace it with one of the types docs/command-line.md lists"));
                continue;
            }
            Map<String, Object> view = new LinkedHashMap<>(node);
            NODE_KEYS.forEach(view::remove);
            nodes.add(new Node(id, type.get(), container(node, data), DataTree.of(data), DataTree.of(view)));
        }
        return nodes;
    }

    /**
     * The iteration or loop a node is inside. Files of 0.1.x have no {@code parentId} (the editor's key); Dify's
     * engine itself finds a container's nodes by their {@code data.iteration_id} or {@code data.loop_id}.
     */
    private static Optional<String> container(Map<String, Object> node, Map<String, Object> data) {
        for (Object given : new Object[] {node.get("parentId"), data.get("iteration_id"), data.get("loop_id")}) {
            String id = text(given);
            if (id != null && !id.isEmpty()) {
                return Optional.of(id);
            }
        }
        return Optional.empty();
    }

    private static List<Edge> edges(Object value, List<WorkflowProblem> problems) {
        List<Edge> edges = new ArrayList<>();
        if (value == null) {
            return edges;
        }
        if (!(value instanceof List<?> list)) {
            problems.add(WorkflowProblem.ofFile("workflow.graph.edges is not a list"));
            return edges;
        }
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> edge = map(list.get(i));
            String source = edge == null ? null : text(edge.get("source"));
            String target = edge == null ? null : text(edge.get("target"));
            if (source == null || target == null || source.isEmpty() || target.isEmpty()) {
                problems.add(WorkflowProblem.ofFile("workflow.graph.edges[" + i + "] needs a source and a target"));
                continue;
            }
            edges.add(new Edge(text(edge.get("id")), source, target, text(edge.get("sourceHandle"))));
        }
        return edges;
    }

    private static List<EnvironmentVariable> environment(Object value, List<WorkflowProblem> problems) {
        List<EnvironmentVariable> variables = new ArrayList<>();
        if (!(value instanceof List<?> list)) {
            return variables;
        }
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> variable = map(list.get(i));
            String name = variable == null ? null : text(variable.get("name"));
            if (name == null || name.isEmpty()) {
                problems.add(WorkflowProblem.ofFile("workflow.environment_variables[" + i + "] has no name"));
                continue;
            }
            variables.add(new EnvironmentVariable(text(variable.get("id")), name, variable.get("value"),
                    text(variable.get("value_type")), text(variable.get("description"))));
        }
        return variables;
    }

    /**
     * A chatflow's conversation variables. The id is kept as the author wrote it, UUID or not (Dify imports
     * {@code opt-comp-prompt-var} as it is and only coerces its own database key).
     */
    private static List<ConversationVariable> conversation(Object value, List<WorkflowProblem> problems) {
        List<ConversationVariable> variables = new ArrayList<>();
        if (value == null) {
            return variables;
        }
        if (!(value instanceof List<?> list)) {
            problems.add(WorkflowProblem.ofFile("workflow.conversation_variables is not a list"));
            return variables;
        }
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> variable = map(list.get(i));
            String where = "workflow.conversation_variables[" + i + "]";
            if (variable == null) {
                problems.add(WorkflowProblem.ofFile(where + " is not an object"));
                continue;
            }
            String name = text(variable.get("name"));
            if (name == null || name.isEmpty()) {
                problems.add(WorkflowProblem.ofFile(where + " has no name"));
                continue;
            }
            Object type = variable.get("value_type");
            if (type != null && !(type instanceof String)) {
                problems.add(WorkflowProblem.ofFile(where + ".value_type is not a text"));
                continue;
            }
            variables.add(new ConversationVariable(text(variable.get("id")), name, (String) type,
                    variable.get("value"), text(variable.get("description"))));
        }
        return variables;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            return null;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        ((Map<Object, Object>) map).forEach((k, v) -> copy.put(String.valueOf(k), v));
        return copy;
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
