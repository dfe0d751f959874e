package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * parameter-extractor: asks the model for its parameters' values in the query, through a tool call
 * (function_call mode) or a JSON answer (prompt mode), then checks each value against its declared type. A value
 * that is missing or of the wrong type leaves {@code __is_success} 0 and says why in {@code __reason}; missing
 * parameters get their type's empty value, as Dify gives them.
 */
public final class ParameterExtractorNode implements NodeExecutor {

    static final String TOOL = "extract_parameters";
    private static final Set<String> TYPES = Set.of("string", "number", "bool", "boolean", "select", "array[string]",
            "array[number]", "array[object]", "array[bool]", "array[boolean]");

    private final ModelProvider models;

    public ParameterExtractorNode(ModelProvider models) {
        this.models = models;
    }

    @Override
    public NodeType type() {
        return NodeType.PARAMETER_EXTRACTOR;
    }

    @Override
    public void checkReady(Node node) {
        ModelNodes.checkReady(models);
    }

    private record Parameter(String name, String type, String description, boolean required, List<Object> options) {
    }

    /** What a node's data says, read once when the workflow is prepared; the model's fields are read as it runs. */
    private record ExtractorSettings(DataTree model, VariableSelector query, List<Parameter> parameters,
            boolean toolMode, String instruction, Optional<ChatMemory> memory) {

        static ExtractorSettings read(DataTree data) {
            DataTree model = data.tree("model");
            VariableSelector query = data.selector("query");
            List<Parameter> parameters = new ArrayList<>();
            for (DataTree item : data.trees("parameters")) {
                String type = item.string("type", "string");
                if (!TYPES.contains(type)) {
                    throw new InvalidNodeDataException("parameters." + item.string("name", "?") + ".type",
                            "'" + type + "' is not a parameter type");
                }
                parameters.add(new Parameter(item.string("name"), type, item.string("description", ""),
                        item.bool("required", false), item.list("options")));
            }
            boolean toolMode = data.string("reasoning_mode", "function_call").equals("function_call");
            String instruction = data.string("instruction", "");
            return new ExtractorSettings(model, query, parameters, toolMode, instruction, ChatMemory.of(data));
        }
    }

    @Override
    public PreparedNode prepare(Node node) {
        ExtractorSettings settings = ExtractorSettings.read(node.data());
        List<VariableSelector> references = new ArrayList<>(List.of(settings.query()));
        references.addAll(VariablePool.references(settings.instruction()));
        Set<String> outputs = new LinkedHashSet<>();
        settings.parameters().forEach(p -> outputs.add(p.name()));
        outputs.addAll(List.of("__is_success", "__reason", "__usage"));
        return PreparedNode.of(references, Optional.of(outputs), ctx -> run(settings, ctx));
    }

    private NodeResult run(ExtractorSettings settings, NodeContext ctx) {
        List<Parameter> parameters = settings.parameters();
        boolean toolMode = settings.toolMode();
        DataTree model = settings.model();
        String text = Values.text(ctx.pool().get(settings.query()).orElse(null));
        Map<String, Object> schema = schema(parameters);
        String system = "You extract structured parameters from text. "
                + (settings.instruction().isBlank() ? ""
                        : "Instructions: " + ctx.pool().render(settings.instruction()) + " ")
                + (toolMode ? "Call the function " + TOOL + " with the values you find."
                        : "Answer with one JSON object that fits this JSON schema and nothing else: "
                        + Values.json(schema))
                + ChatMemory.histories(settings.memory(), ctx.chatTurn());
        List<ModelProvider.Tool> tools = toolMode
                ? List.of(new ModelProvider.Tool(TOOL, "Extract the parameters from the text", schema))
                : List.of();
        long started = System.nanoTime();
        ChatResult result = ModelNodes.chat(models, new ChatRequest(model.string("provider", ""),
                model.string("name"), List.of(ChatMessage.of("system", system), ChatMessage.of("user", text)),
                model.tree("completion_params").asMap(), tools), piece -> { }, ctx);
        String answer = result.toolCalls().stream().filter(c -> c.name().equals(TOOL)).findFirst()
                .map(ModelProvider.ToolCall::arguments).orElse(result.text());
        Map<String, Object> found = ModelNodes.jsonObject(answer);
        Map<String, Object> values = new LinkedHashMap<>();
        String reason = null;
        for (Parameter parameter : parameters) {
            Object value = found.get(parameter.name());
            Object checked = value == null ? null : check(parameter, Values.normalize(value));
            if (value != null && checked == null && reason == null) {
                reason = "Invalid value for parameter " + parameter.name() + ": expected "
                        + parameter.type() + ", got " + Values.text(value);
            }
            if (checked == null && parameter.required() && reason == null) {
                reason = "Required parameter " + parameter.name() + " is missing";
            }
            values.put(parameter.name(), checked == null ? empty(parameter.type()) : checked);
        }
        if (found.isEmpty() && !parameters.isEmpty() && reason == null) {
            reason = "The model's answer held no parameters";
        }
        Map<String, Object> usage = ModelNodes.usage(result.usage(), (System.nanoTime() - started) / 1e9);
        values.put("__is_success", reason == null ? 1L : 0L);
        values.put("__reason", reason);
        values.put("__usage", usage);
        Map<String, Object> process = new LinkedHashMap<>();
        process.put("reasoning_mode", toolMode ? "function_call" : "prompt");
        process.put("answer", answer);
        return new NodeResult(Map.of("query", text), process, values, null, result.usage().totalTokens(), null);
    }

    private static Map<String, Object> schema(List<Parameter> parameters) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (Parameter parameter : parameters) {
            Map<String, Object> property = new LinkedHashMap<>();
            String type = parameter.type();
            if (type.startsWith("array[")) {
                property.put("type", "array");
                property.put("items", Map.of("type", jsonType(type.substring(6, type.length() - 1))));
            } else {
                property.put("type", jsonType(type));
            }
            if (type.equals("select")) {
                property.put("enum", parameter.options());
            }
            property.put("description", parameter.description());
            properties.put(parameter.name(), property);
            if (parameter.required()) {
                required.add(parameter.name());
            }
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        return schema;
    }

    private static String jsonType(String type) {
        return switch (type) {
            case "number" -> "number";
            case "bool", "boolean" -> "boolean";
            case "object" -> "object";
            default -> "string";
        };
    }

    /** The value converted to the parameter's type, or null when it does not fit. */
    private static Object check(Parameter parameter, Object value) {
        String type = parameter.type();
        if (type.startsWith("array[")) {
            if (!(value instanceof List<?> list)) {
                return null;
            }
            String item = type.substring(6, type.length() - 1);
            List<Object> checked = new ArrayList<>();
            for (Object element : list) {
                Object one = scalar(item, element, List.of());
                if (one == null) {
                    return null;
                }
                checked.add(one);
            }
            return checked;
        }
        return scalar(type, value, parameter.options());
    }

    private static Object scalar(String type, Object value, List<Object> options) {
        switch (type) {
            case "number":
                if (Values.isNumber(value)) {
                    return value;
                }
                if (value instanceof String text) {
                    try {
                        return text.contains(".") ? (Object) Double.parseDouble(text.strip())
                                : (Object) Long.parseLong(text.strip());
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }
                return null;
            case "bool", "boolean":
                if (value instanceof Boolean) {
                    return value;
                }
                return value instanceof String text && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))
                        ? Boolean.parseBoolean(text) : null;
            case "object":
                return value instanceof Map<?, ?> ? value : null;
            case "select":
                return value instanceof String text && options.stream().map(String::valueOf).anyMatch(text::equals)
                        ? text : null;
            default:
                return value instanceof String || Values.isNumber(value) || value instanceof Boolean
                        ? Values.text(value) : null;
        }
    }

    private static Object empty(String type) {
        if (type.startsWith("array[")) {
            return List.of();
        }
        return switch (type) {
            case "number" -> 0L;
            case "bool", "boolean" -> false;
            default -> "";
        };
    }
}
