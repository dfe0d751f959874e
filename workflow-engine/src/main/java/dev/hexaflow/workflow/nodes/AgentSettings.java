package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** What an agent node's data says, read once when the workflow is prepared. */
record AgentSettings(Optional<Strategy> strategy, String strategyName, String strategyProvider, String provider,
        String model, Map<String, Object> completionParams, NodeArgument instruction, NodeArgument query,
        int maximumIterations, List<AgentTool> tools, Optional<ChatMemory> memory, KnowledgeTools knowledge,
        Optional<AgentMcpServers> mcpServers) {

    private static final int DEFAULT_ITERATIONS = 3;
    private static final int MOST_ITERATIONS = 99;

    /**
     * The strategies Hexaflow runs, by the plugin that gives them ({@code agent_strategy_provider_name}) and their
     * name: function calling and ReAct of Dify's own {@code langgenius/agent/agent} (or no provider); the MCP
     * strategy of {@code hjlarry/agent} (function calling with the servers of {@code mcp_server}); the MCP
     * strategies of {@code junjiem/mcp_see_agent} ({@code mcp_sse_function_calling}, {@code mcp_sse_ReAct}, with
     * {@code mcp_servers_config}). Any other is none: another plugin's {@code function_calling} may do otherwise.
     */
    enum Strategy {
        FUNCTION_CALLING(false, List.of()), REACT(true, List.of()),
        HJLARRY_MCP(false, List.of("mcp_server", "mcp_servers_config")),
        MCP_FUNCTION_CALLING(false, List.of("mcp_servers_config", "servers_config")),
        MCP_REACT(true, List.of("mcp_servers_config", "servers_config"));

        AgentMcpServers.Waits waits() {
            return this == HJLARRY_MCP ? AgentMcpServers.Waits.HJLARRY : AgentMcpServers.Waits.JUNJIEM;
        }

        private final boolean react;
        /** The parameters that may hold the MCP servers, the first one the plugin's own. */
        private final List<String> serverKeys;

        Strategy(boolean react, List<String> serverKeys) {
            this.react = react;
            this.serverKeys = serverKeys;
        }

        boolean react() {
            return react;
        }

        List<String> serverKeys() {
            return serverKeys;
        }

        static Optional<Strategy> fromWireName(String provider, String name) {
            String plugin = provider.toLowerCase(Locale.ROOT);
            String strategy = name.toLowerCase(Locale.ROOT);
            if (plugin.isBlank() || plugin.startsWith("langgenius/agent/")) {
                return switch (strategy) {
                    case "function_calling" -> Optional.of(FUNCTION_CALLING);
                    case "react", "cot" -> Optional.of(REACT);
                    default -> Optional.empty();
                };
            }
            if (plugin.startsWith("hjlarry/agent/") && Set.of("function_calling", "mcp_agent",
                    "mcp_function_calling").contains(strategy)) {
                return Optional.of(HJLARRY_MCP);
            }
            if (plugin.startsWith("junjiem/mcp_s")) {
                return switch (strategy) {
                    case "mcp_sse_function_calling" -> Optional.of(MCP_FUNCTION_CALLING);
                    case "mcp_sse_react" -> Optional.of(MCP_REACT);
                    default -> Optional.empty();
                };
            }
            return Optional.empty();
        }
    }

    /** A tool the node offers: what it is, the description the DSL gives it, and the arguments it fixes. */
    record AgentTool(ToolRef ref, String description, Map<String, NodeArgument> fixed) {
    }

    static String unknownStrategy(String name, String provider) {
        return "The agent strategy " + name + (provider.isBlank() ? "" : " of " + provider) + " is not one "
                + "Hexaflow runs (function_calling or ReAct of langgenius/agent/agent, the MCP strategy of "
                + "hjlarry/agent, mcp_sse_function_calling or mcp_sse_ReAct of junjiem/mcp_see_agent), so a run that "
                + "reaches it fails.";
    }

    static AgentSettings read(DataTree data) {
        String strategyName = data.string("agent_strategy_name", "function_calling");
        String strategyProvider = data.string("agent_strategy_provider_name", "");
        Optional<Strategy> strategy = Strategy.fromWireName(strategyProvider, strategyName);
        DataTree parameters = data.tree("agent_parameters");
        DataTree model = parameters.has("model") ? parameters.tree("model").tree("value") : data.tree("model");
        String modelName = model.optionalString("model").filter(m -> !m.isBlank())
                .orElseGet(() -> model.string("name", ""));
        if (modelName.isBlank()) {
            throw new InvalidNodeDataException("agent_parameters.model", "must name a model");
        }
        int iterations = maximumIterations(parameters);
        List<AgentTool> tools = tools(parameters);
        Optional<AgentMcpServers> servers = strategy.filter(s -> !s.serverKeys().isEmpty())
                .map(s -> AgentMcpServers.read(parameters, s.serverKeys(), s.waits()));
        return new AgentSettings(strategy, strategyName, strategyProvider, model.string("provider", ""),
                modelName, model.tree("completion_params").asMap(), param(parameters, "instruction"),
                param(parameters, "query"), iterations, tools, ChatMemory.forAgent(data),
                KnowledgeTools.read(data), servers);
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

    static NodeArgument param(DataTree parameters, String key) {
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
