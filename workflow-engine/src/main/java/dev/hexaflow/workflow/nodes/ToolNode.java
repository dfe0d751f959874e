package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * tool: calls the tool the node names through the first runner that runs it (a built-in, or a tool an operator
 * bound), with its configurations and parameters resolved from the variable pool, and answers as Dify's tool node
 * does: {@code text} (the texts and links joined, streamed when an end output shows it), {@code files},
 * {@code json} (the JSON messages, {@code [{"data": []}]} when none) and one output per variable message.
 */
public final class ToolNode implements NodeExecutor {

    /** Dify's {@code json} output when the tool sent no JSON message. */
    private static final List<Object> NO_JSON = List.of(Map.of("data", List.of()));

    private final List<ToolRunner> runners;

    public ToolNode(List<ToolRunner> runners) {
        this.runners = List.copyOf(runners);
    }

    @Override
    public NodeType type() {
        return NodeType.TOOL;
    }


    @Override
    public PreparedNode prepare(Node node) {
        DataTree data = node.data();
        ToolRef tool = ref(data);
        String providerName = data.string("provider_name", tool.provider());
        Map<String, NodeArgument> inputs = new LinkedHashMap<>();
        readInputs(data, "tool_configurations", inputs);
        readInputs(data, "tool_parameters", inputs);
        List<VariableSelector> references = NodeArgument.references(inputs.values());
        return PreparedNode.of(references, Optional.empty(), ctx -> {
            Map<String, Object> arguments = new LinkedHashMap<>();
            inputs.forEach((name, input) -> {
                Object value = input.resolve(ctx.pool());
                if (value != null || !(input instanceof NodeArgument.Variable)) {
                    arguments.put(name, value);
                }
            });
            ToolRunner runner = runnerOf(tool).orElseThrow(() -> new NodeFailure("ToolNodeError",
                    "Failed to get tool runtime: " + UnboundTools.runError(tool), null));
            List<ToolMessage> messages;
            try {
                messages = runner.run(tool, arguments, ctx);
            } catch (ToolRunner.ToolException e) {
                throw new NodeFailure("ToolInvokeError", "Failed to invoke tool " + providerName + ": "
                        + e.getMessage(), e);
            }
            return new NodeResult(arguments, Map.of(), outputs(messages, node, ctx), null, 0, null);
        });
    }

    /** Names the tools no runner runs now, with how to bind them. */
    @Override
    public List<String> warnings(Node node) {
        ToolRef tool = ref(node.data());
        return runnerOf(tool).isPresent() ? List.of() : List.of(UnboundTools.warning(tool));
    }

    private Optional<ToolRunner> runnerOf(ToolRef tool) {
        for (ToolRunner runner : runners) {
            if (runner.runs(tool)) {
                return Optional.of(runner);
            }
        }
        return Optional.empty();
    }

    private static ToolRef ref(DataTree data) {
        String typeName = data.string("provider_type", "builtin");
        ToolProviderType type = ToolProviderType.fromWireName(typeName).orElseThrow(() ->
                new InvalidNodeDataException("provider_type", "'" + typeName
                        + "' is not one of builtin, plugin, api, workflow, mcp"));
        String provider = data.optionalString("provider_id").filter(id -> !id.isBlank())
                .orElseGet(() -> data.string("provider_name", ""));
        if (provider.isBlank()) {
            throw new InvalidNodeDataException("provider_id", "must not be empty");
        }
        String name = data.string("tool_name", "");
        if (name.isBlank()) {
            throw new InvalidNodeDataException("tool_name", "must not be empty");
        }
        return new ToolRef(type, provider, name);
    }

    /**
     * Reads {@code tool_configurations} or {@code tool_parameters}: each a {@code {type, value}} pair
     * ({@code mixed}, {@code variable}, {@code constant}), or, in older files, the value itself (text is a
     * template). A parameter given both ways is the parameter's.
     */
    private static void readInputs(DataTree data, String field, Map<String, NodeArgument> inputs) {
        if (!(data.get(field) instanceof Map<?, ?>)) {
            return;
        }
        data.tree(field).asMap().forEach((name, given) -> {
            if (given instanceof Map<?, ?> pair && pair.containsKey("type")) {
                String kind = String.valueOf(pair.get("type"));
                Object value = pair.get("value");
                inputs.put(name, switch (kind) {
                    case "variable" -> {
                        if (!(value instanceof List<?> path)) {
                            throw new InvalidNodeDataException(field + "." + name + ".value",
                                    "must be a variable selector");
                        }
                        yield new NodeArgument.Variable(DataTree.selector(field + "." + name + ".value", path));
                    }
                    case "mixed", "constant" -> NodeArgument.given(value);
                    default -> throw new InvalidNodeDataException(field + "." + name + ".type", "'" + kind
                            + "' is not one of mixed, variable, constant");
                });
            } else {
                inputs.put(name, NodeArgument.given(given));
            }
        });
    }

    private static Map<String, Object> outputs(List<ToolMessage> messages, Node node, NodeContext ctx) {
        StringBuilder text = new StringBuilder();
        List<FileValue> files = new ArrayList<>();
        List<Object> json = new ArrayList<>();
        Map<String, Object> variables = new LinkedHashMap<>();
        Consumer<String> stream = null;
        for (ToolMessage message : messages) {
            String piece = null;
            if (message instanceof ToolMessage.Text t) {
                piece = t.text();
            } else if (message instanceof ToolMessage.Link link) {
                piece = "Link: " + link.url() + "\n";
            } else if (message instanceof ToolMessage.Json j) {
                json.add(j.value());
            } else if (message instanceof ToolMessage.Variable variable) {
                variables.put(variable.name(), variable.value());
            } else if (message instanceof ToolMessage.File file) {
                files.add(file.file());
            } else if (message instanceof ToolMessage.Blob blob) {
                // A blob becomes a file where tool files are kept (the server); a bare engine keeps none.
                throw new NodeFailure("ToolInvokeError", "The tool answered a file (" + blob.mimeType() + "), and "
                        + "this engine keeps no tool files", null);
            }
            if (piece != null) {
                text.append(piece);
                if (stream == null) {
                    stream = EndStreams.of(ctx).streamFor(ctx, node.id(), "text").orElse(p -> { });
                }
                stream.accept(piece);
            }
        }
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("text", text.toString());
        outputs.put("files", files);
        outputs.put("json", json.isEmpty() ? NO_JSON : json);
        outputs.putAll(variables);
        return outputs;
    }
}
