package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What an agent node's data says, read once when the workflow is prepared. */
record AgentSettings(Optional<Strategy> strategy, String strategyName, String provider, String model,
        Map<String, Object> completionParams, NodeArgument instruction, NodeArgument query, int maximumIterations,
        List<AgentTool> tools, Optional<ChatMemory> memory, KnowledgeTools knowledge) {

    private static final int DEFAULT_ITERATIONS = 3;
    private static final int MOST_ITERATIONS = 99;

    /** The strategies of Dify's agent plugin that Hexaflow runs, by the name a DSL gives them. */
    enum Strategy {
        FUNCTION_CALLING, REACT;

        static Optional<Strategy> fromWireName(String name) {
            return switch (name.toLowerCase(java.util.Locale.ROOT)) {
                case "function_calling" -> Optional.of(FUNCTION_CALLING);
                case "react", "cot" -> Optional.of(REACT);
                default -> Optional.empty();
            };
        }
    }

    /** A tool the node offers: what it is, the description the DSL gives it, and the arguments it fixes. */
    record AgentTool(ToolRef ref, String description, Map<String, NodeArgument> fixed) {
    }

    static String unknownStrategy(String name) {
        return "The agent strategy " + name + " is not one Hexaflow runs (function_calling or ReAct of "
                + "langgenius/agent/agent), so a run that reaches it fails.";
    }

    static AgentSettings read(DataTree data) {
        String strategyName = data.string("agent_strategy_name", "function_calling");
        DataTree parameters = data.tree("agent_parameters");
        DataTree model = parameters.has("model") ? parameters.tree("model").tree("value") : data.tree("model");
        String modelName = model.optionalString("model").filter(m -> !m.isBlank())
                .orElseGet(() -> model.string("name", ""));
        if (modelName.isBlank()) {
            throw new InvalidNodeDataException("agent_parameters.model", "must name a model");
        }
        int iterations = maximumIterations(parameters);
        List<AgentTool> tools = tools(parameters);
        return new AgentSettings(Strategy.fromWireName(strategyName), strategyName, model.string("provider", ""),
                modelName, model.tree("completion_params").asMap(), param(parameters, "instruction"),
                param(parameters, "query"), iterations, tools, ChatMemory.forAgent(data),
                KnowledgeTools.read(data));
    }

    private static int maximumIterations(DataTree parameters) {
        for (String key : List.of("maximum_iterations", "max_iterations")) {
            if (parameters.has(key)) {
                String field = "agent_parameters." + key + ".value";
                long given = DataTree.of(Map.of("value", valueOf(parameters, key))).optionalLong("value")
                        .orElse((long) DEFAULT_ITERATIONS);
                if (given < 1 || given > MOST_ITERATIONS) {
                    throw new InvalidNodeDataException(field, "must be between 1 and " + MOST_ITERATIONS
                            + ", was " + given);
                }
                return (int) given;
            }
        }
        return DEFAULT_ITERATIONS;
    }

    private static List<AgentTool> tools(DataTree parameters) {
        Object toolList = parameters.has("tools") ? valueOf(parameters, "tools") : List.of();
        if (!(toolList instanceof List<?>)) {
            throw new InvalidNodeDataException("agent_parameters.tools.value", "must be a list of tools");
        }
        List<AgentTool> tools = new ArrayList<>();
        for (DataTree tool : DataTree.of(Map.of("tools", toolList)).trees("tools")) {
            if (tool.bool("enabled", true)) {
                tools.add(tool(tool));
            }
        }
        return tools;
    }

    private static Object valueOf(DataTree parameters, String key) {
        Object given = parameters.get(key);
        return given instanceof Map<?, ?> pair && pair.containsKey("value") ? pair.get("value") : given;
    }

    private static NodeArgument param(DataTree parameters, String key) {
        Object given = parameters.get(key);
        if (given instanceof Map<?, ?> pair && "variable".equals(pair.get("type"))) {
            if (!(pair.get("value") instanceof List<?> path)) {
                throw new InvalidNodeDataException("agent_parameters." + key + ".value", "must be a variable "
                        + "selector");
            }
            return new NodeArgument.Variable(DataTree.selector("agent_parameters." + key + ".value", path));
        }
        Object value = valueOf(parameters, key);
        return NodeArgument.given(value == null ? "" : value);
    }

    /**
     * A tool of the node's list: {@code provider_name} (or {@code provider_id}), {@code tool_name}, {@code type};
     * the parameters it fixes ({@code auto: 0}, with their value) and its settings are not offered to the model.
     */
    private static AgentTool tool(DataTree tool) {
        String typeName = tool.string("type", tool.string("provider_type", "builtin"));
        ToolProviderType type = ToolProviderType.fromWireName(typeName).orElseThrow(() ->
                new InvalidNodeDataException("agent_parameters.tools.type", "'" + typeName
                        + "' is not one of builtin, plugin, api, workflow, mcp"));
        String provider = tool.optionalString("provider_name").filter(p -> !p.isBlank())
                .orElseGet(() -> tool.string("provider_id", ""));
        String name = tool.string("tool_name", "");
        if (provider.isBlank() || name.isBlank()) {
            throw new InvalidNodeDataException("agent_parameters.tools", "each tool must name its provider_name "
                    + "and tool_name");
        }
        Map<String, NodeArgument> fixed = new LinkedHashMap<>();
        tool.tree("settings").asMap().forEach((key, setting) -> fixed.put(key, fixedParam(
                setting instanceof Map<?, ?> map ? map.get("value") : setting)));
        tool.tree("parameters").asMap().forEach((key, parameter) -> {
            if (parameter instanceof Map<?, ?> map && map.containsKey("auto")
                    && "0".equals(String.valueOf(map.get("auto")))) {
                fixed.put(key, fixedParam(map.get("value")));
            }
        });
        return new AgentTool(new ToolRef(type, provider, name), tool.tree("extra").string("description", ""),
                fixed);
    }

    private static NodeArgument fixedParam(Object given) {
        if (given instanceof Map<?, ?> pair && pair.containsKey("type")) {
            Object value = pair.get("value");
            if ("variable".equals(pair.get("type")) && value instanceof List<?> path) {
                return new NodeArgument.Variable(DataTree.selector("agent_parameters.tools.parameters", path));
            }
            return NodeArgument.given(value);
        }
        return NodeArgument.given(given);
    }
}
