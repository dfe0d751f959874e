package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.workflow.port.out.ModelProvider.ToolCall;
import dev.hexaflow.workflow.port.out.ModelProvider.Usage;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.JsonText;
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
import java.util.function.Consumer;

/**
 * agent: Dify's agent node with the strategies of its own agent plugin ({@code langgenius/agent/agent}):
 * {@code function_calling} offers the node's tools to the model with their JSON schemas and runs the calls it
 * makes; {@code ReAct} describes the tools in the prompt and reads a JSON action from the answer. Either runs up
 * to {@code maximum_iterations} rounds (the last one without tools, so that the model answers), runs each tool
 * through the first runner that runs it, and answers {@code text} (streamed when an end output shows it),
 * {@code files}, {@code json} and {@code usage}; every round, model call and tool call goes to the execution's
 * {@code agent_log}, and to the run's listeners as it begins and as it ends, as Dify's {@code agent_log} events.
 * In a chatflow, its {@code memory} puts the conversation's earlier turns between the instruction and the query,
 * as Dify's agent node hands them to the strategy ({@code history_prompt_messages}) and the strategies place them.
 */
public final class AgentNode implements NodeExecutor {

    /** Dify's {@code json} output when the agent sent no JSON message. */
    private static final List<Object> NO_JSON = List.of(Map.of("data", List.of()));
    private static final int DEFAULT_ITERATIONS = 3;
    private static final int MOST_ITERATIONS = 99;
    /** A tool's answer kept in the log is cut here, so that a large page cannot swell every run record. */
    private static final int LOGGED_TEXT = 2000;

    private final ModelProvider models;
    private final List<ToolRunner> runners;

    public AgentNode(ModelProvider models, List<ToolRunner> runners) {
        this.models = models;
        this.runners = List.copyOf(runners);
    }

    @Override
    public NodeType type() {
        return NodeType.AGENT;
    }

    @Override
    public void checkReady(Node node) {
        ModelNodes.checkReady(models);
    }

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
    private record AgentTool(ToolRef ref, String description, Map<String, NodeArgument> fixed) {
    }


    /** What a node's data says, read once when the workflow is prepared. */
    private record Plan(Optional<Strategy> strategy, String strategyName, String provider, String model,
            Map<String, Object> completionParams, NodeArgument instruction, NodeArgument query, int maximumIterations,
            List<AgentTool> tools, Optional<ChatMemory> memory) {
    }

    @Override
    public PreparedNode prepare(Node node) {
        Plan plan = plan(node.data());
        List<NodeArgument> params = new ArrayList<>(List.of(plan.instruction(), plan.query()));
        plan.tools().forEach(tool -> params.addAll(tool.fixed().values()));
        List<VariableSelector> references = NodeArgument.references(params);
        Set<String> outputs = Set.of("text", "files", "json", "usage");
        return PreparedNode.of(references, Optional.of(outputs), ctx -> new AgentRun(plan, node, ctx).run());
    }

    /** Names the tools no runner runs now and a strategy Hexaflow does not have, each with what to do. */
    @Override
    public List<String> warnings(Node node) {
        Plan plan = plan(node.data());
        List<String> warnings = new ArrayList<>();
        if (plan.strategy().isEmpty()) {
            warnings.add(unknownStrategy(plan.strategyName()));
        }
        for (AgentTool tool : plan.tools()) {
            if (runnerOf(tool.ref()).isEmpty()) {
                warnings.add(UnboundTools.warning(tool.ref()));
            }
        }
        return warnings;
    }

    private static String unknownStrategy(String name) {
        return "The agent strategy " + name + " is not one Hexaflow runs (function_calling or ReAct of "
                + "langgenius/agent/agent), so a run that reaches it fails.";
    }

    private Optional<ToolRunner> runnerOf(ToolRef tool) {
        for (ToolRunner runner : runners) {
            if (runner.runs(tool)) {
                return Optional.of(runner);
            }
        }
        return Optional.empty();
    }

    private static Plan plan(DataTree data) {
        String strategyName = data.string("agent_strategy_name", "function_calling");
        DataTree parameters = data.tree("agent_parameters");
        DataTree model = parameters.has("model") ? parameters.tree("model").tree("value") : data.tree("model");
        String modelName = model.optionalString("model").filter(m -> !m.isBlank())
                .orElseGet(() -> model.string("name", ""));
        if (modelName.isBlank()) {
            throw new InvalidNodeDataException("agent_parameters.model", "must name a model");
        }
        int iterations = DEFAULT_ITERATIONS;
        for (String key : List.of("maximum_iterations", "max_iterations")) {
            if (parameters.has(key)) {
                String field = "agent_parameters." + key + ".value";
                long given = DataTree.of(Map.of("value", valueOf(parameters, key))).optionalLong("value")
                        .orElse((long) DEFAULT_ITERATIONS);
                if (given < 1 || given > MOST_ITERATIONS) {
                    throw new InvalidNodeDataException(field, "must be between 1 and " + MOST_ITERATIONS
                            + ", was " + given);
                }
                iterations = (int) given;
                break;
            }
        }
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
        return new Plan(Strategy.fromWireName(strategyName), strategyName, model.string("provider", ""),
                modelName, model.tree("completion_params").asMap(), param(parameters, "instruction"),
                param(parameters, "query"), iterations, tools, ChatMemory.forAgent(data));
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

    /** A tool ready to be offered in one run: how the model sees it, and the runner that runs it. */
    private record Offered(AgentTool tool, ToolRunner runner, ModelProvider.Tool function,
            Map<String, Object> fixedArguments) {
    }

    /** One run of the node: its conversation, what the tools gave, the log and the usage so far. */
    private final class AgentRun {

        private final Plan plan;
        private final Node node;
        private final NodeContext ctx;
        private final StringBuilder text = new StringBuilder();
        private final List<FileValue> files = new ArrayList<>();
        private final List<Map<String, Object>> log = new ArrayList<>();
        private final long started = System.nanoTime();
        private long promptTokens;
        private long completionTokens;
        private long totalTokens;
        private Consumer<String> sink;

        AgentRun(Plan plan, Node node, NodeContext ctx) {
            this.plan = plan;
            this.node = node;
            this.ctx = ctx;
        }

        NodeResult run() {
            Strategy strategy = plan.strategy().orElseThrow(() -> new NodeFailure("AgentNodeError",
                    "Failed to get agent strategy: " + unknownStrategy(plan.strategyName()), null));
            VariablePool pool = ctx.pool();
            String instruction = Values.text(plan.instruction().resolve(pool));
            String query = Values.text(plan.query().resolve(pool));
            Map<String, Offered> tools = offer(pool);
            List<ChatMessage> history = plan.memory().isPresent() && ctx.chatTurn().isPresent()
                    ? plan.memory().get().historyMessages(ctx.chatTurn().get()) : List.of();
            Map<String, Object> inputs = new LinkedHashMap<>();
            inputs.put("model", Map.of("provider", plan.provider(), "model", plan.model()));
            inputs.put("tools", plan.tools().stream().map(t -> t.ref().label()).toList());
            inputs.put("instruction", instruction);
            inputs.put("query", query);
            inputs.put("maximum_iterations", plan.maximumIterations());
            if (strategy == Strategy.FUNCTION_CALLING) {
                functionCalling(instruction, history, query, tools);
            } else {
                react(instruction, history, query, tools);
            }
            Usage usage = new Usage(promptTokens, completionTokens, totalTokens);
            Map<String, Object> usageMap = ModelNodes.usage(usage, (System.nanoTime() - started) / 1e9);
            Map<String, Object> outputs = new LinkedHashMap<>();
            outputs.put("text", text.toString());
            outputs.put("files", files);
            outputs.put("json", NO_JSON);
            outputs.put("usage", usageMap);
            Map<String, Object> process = new LinkedHashMap<>();
            process.put("agent_strategy", plan.strategyName());
            process.put("model_provider", plan.provider());
            process.put("model_name", plan.model());
            process.put("usage", usageMap);
            return new NodeResult(inputs, process, outputs, null, totalTokens, null).withAgentLog(log);
        }

        /** The node's tools as the model is offered them, each described by the runner that runs it. */
        private Map<String, Offered> offer(VariablePool pool) {
            Map<String, Offered> offered = new LinkedHashMap<>();
            for (AgentTool tool : plan.tools()) {
                ToolRunner runner = runnerOf(tool.ref()).orElseThrow(() -> new NodeFailure("AgentNodeError",
                        "Failed to get tool runtime: " + UnboundTools.runError(tool.ref()), null));
                ToolDescription description = runner.describe(tool.ref()).orElseThrow(() -> new NodeFailure(
                        "AgentNodeError", "Failed to get tool runtime: " + UnboundTools.runError(tool.ref()),
                        null));
                Map<String, Object> fixed = new LinkedHashMap<>();
                tool.fixed().forEach((name, param) -> fixed.put(name, param.resolve(pool)));
                String said = tool.description().isBlank() ? description.description() : tool.description();
                offered.putIfAbsent(tool.ref().tool(), new Offered(tool, runner, new ModelProvider.Tool(
                        tool.ref().tool(), said, schemaWithout(description.inputSchema(), fixed.keySet())), fixed));
            }
            return offered;
        }

        private void functionCalling(String instruction, List<ChatMessage> history, String query,
                Map<String, Offered> tools) {
            List<ChatMessage> messages = new ArrayList<>();
            if (!instruction.isBlank()) {
                messages.add(ChatMessage.of("system", instruction));
            }
            messages.addAll(history);
            messages.add(ChatMessage.of("user", query));
            List<ModelProvider.Tool> functions = tools.values().stream().map(Offered::function).toList();
            for (int round = 1; round <= plan.maximumIterations(); round++) {
                ctx.checkStopped();
                boolean last = round == plan.maximumIterations();
                String roundId = "round-" + round;
                long roundStarted = System.currentTimeMillis();
                begun(roundId, "ROUND " + round, null, roundStarted, null);
                ChatResult result = call(roundId, messages, last ? List.of() : functions, Map.of(), this::stream);
                text.append(result.text());
                if (result.toolCalls().isEmpty() || last) {
                    logRound(roundId, round, roundStarted, result.text(), List.of());
                    return;
                }
                messages.add(ChatMessage.assistant(result.text(), result.toolCalls()));
                List<Map<String, Object>> responses = new ArrayList<>();
                for (ToolCall call : result.toolCalls()) {
                    ctx.checkStopped();
                    String response = invoke(roundId, call.id(), call.name(), arguments(call.arguments()), tools);
                    messages.add(ChatMessage.toolResult(call.id(), response));
                    responses.add(Map.of("tool_call_id", call.id(), "tool_call_name", call.name(),
                            "tool_response", shortened(response)));
                }
                logRound(roundId, round, roundStarted, result.text(), responses);
            }
        }

        private void react(String instruction, List<ChatMessage> history, String query,
                Map<String, Offered> tools) {
            String system = ReactPrompt.system(instruction, tools.values().stream().map(Offered::function)
                    .toList());
            StringBuilder scratchpad = new StringBuilder();
            Map<String, Object> stopWords = Map.of("stop", List.of("Observation:"));
            for (int round = 1; round <= plan.maximumIterations(); round++) {
                ctx.checkStopped();
                String roundId = "round-" + round;
                long roundStarted = System.currentTimeMillis();
                begun(roundId, "ROUND " + round, null, roundStarted, null);
                List<ChatMessage> messages = new ArrayList<>(List.of(ChatMessage.of("system", system)));
                messages.addAll(history);
                messages.add(ChatMessage.of("user", "Question: " + query));
                if (!scratchpad.isEmpty()) {
                    messages.add(ChatMessage.of("assistant", scratchpad.toString()));
                }
                ChatResult result = call(roundId, messages, List.of(), stopWords, piece -> { });
                ReactPrompt.Action action = ReactPrompt.parse(result.text());
                boolean last = round == plan.maximumIterations();
                if (action.finalAnswer() != null || action.tool() == null || last) {
                    String answer = action.finalAnswer() != null ? action.finalAnswer() : result.text();
                    text.append(answer);
                    stream(answer);
                    logRound(roundId, round, roundStarted, result.text(), List.of());
                    return;
                }
                String callId = roundId + "-call";
                String observation = invoke(roundId, callId, action.tool(), action.input(), tools);
                scratchpad.append(result.text().strip()).append("\nObservation: ").append(observation)
                        .append("\n");
                logRound(roundId, round, roundStarted, result.text(), List.of(Map.of("tool_call_id", callId,
                        "tool_call_name", action.tool(), "tool_response", shortened(observation))));
            }
        }

        private ChatResult call(String roundId, List<ChatMessage> messages, List<ModelProvider.Tool> functions,
                Map<String, Object> extra, Consumer<String> onText) {
            Map<String, Object> parameters = new LinkedHashMap<>(plan.completionParams());
            parameters.putAll(extra);
            long callStarted = System.currentTimeMillis();
            begun(roundId + "-thought", plan.model() + " Thought", roundId, callStarted, plan.provider());
            ChatResult result;
            try {
                result = models.chat(new ChatRequest(plan.provider(), plan.model(), messages, parameters,
                        functions), onText, ctx);
            } catch (ModelProvider.ModelException e) {
                ctx.checkStopped();
                throw new NodeFailure("AgentNodeError", "Failed to invoke agent: " + e.getMessage(), e);
            }
            promptTokens += result.usage().promptTokens();
            completionTokens += result.usage().completionTokens();
            totalTokens += result.usage().totalTokens();
            Map<String, Object> output = new LinkedHashMap<>();
            output.put("llm_response", result.text());
            output.put("tool_calls", result.toolCalls().stream().map(c -> Map.of("id", c.id(), "name", c.name(),
                    "arguments", c.arguments())).toList());
            Map<String, Object> metadata = timing(callStarted);
            metadata.put("provider", plan.provider());
            metadata.put("total_tokens", result.usage().totalTokens());
            metadata.put("total_price", "0");
            metadata.put("currency", "USD");
            logged(log.size(), entry(roundId + "-thought", plan.model() + " Thought", roundId, "success", null,
                    Map.of("output", output), metadata));
            return result;
        }

        /**
         * Runs one call the model made and answers what the model is told: the tool's messages as text, or, when
         * the tool is unknown or fails, the error, so that the model can go on as Dify's strategies let it.
         */
        private String invoke(String roundId, String callId, String name, Object arguments,
                Map<String, Offered> tools) {
            long callStarted = System.currentTimeMillis();
            Offered tool = tools.get(name);
            begun(roundId + "-call-" + callId, "CALL " + name, roundId, callStarted,
                    tool == null ? "" : tool.tool().ref().provider());
            String response;
            String error = null;
            Map<String, Object> given = new LinkedHashMap<>();
            if (tool == null) {
                response = "there is not a tool named " + name;
                error = response;
            } else if (!(arguments instanceof Map<?, ?> map)) {
                response = "tool invoke error: the arguments are not a JSON object: " + Values.text(arguments);
                error = response;
            } else {
                map.forEach((key, value) -> given.put(String.valueOf(key), value));
                given.putAll(tool.fixedArguments());
                try {
                    response = answer(tool.runner().run(tool.tool().ref(), given, ctx));
                } catch (ToolRunner.ToolException e) {
                    ctx.checkStopped();
                    response = "tool invoke error: " + e.getMessage();
                    error = e.getMessage();
                }
            }
            Map<String, Object> output = new LinkedHashMap<>();
            output.put("tool_call_id", callId);
            output.put("tool_call_name", name);
            output.put("tool_call_input", given.isEmpty() ? arguments : given);
            output.put("tool_response", shortened(response));
            Map<String, Object> metadata = timing(callStarted);
            metadata.put("provider", tool == null ? "" : tool.tool().ref().provider());
            logged(log.size(), entry(roundId + "-call-" + callId, "CALL " + name, roundId,
                    error == null ? "success" : "error", error, Map.of("output", output), metadata));
            return response;
        }

        /** The tool's messages as the model reads them; its files go to the node's {@code files} as well. */
        private String answer(List<ToolMessage> messages) {
            StringBuilder said = new StringBuilder();
            for (ToolMessage message : messages) {
                if (message instanceof ToolMessage.Text t) {
                    said.append(t.text());
                } else if (message instanceof ToolMessage.Link link) {
                    said.append("result link: ").append(link.url()).append(". please tell user to check it.");
                } else if (message instanceof ToolMessage.Json json) {
                    said.append(Values.json(json.value()));
                } else if (message instanceof ToolMessage.Variable variable) {
                    said.append(Values.json(Map.of(variable.name(), variable.value())));
                } else if (message instanceof ToolMessage.File file) {
                    files.add(file.file());
                    said.append("file has been created and sent to user already, you do not need to create it,"
                            + " just tell the user to check it now.");
                } else if (message instanceof ToolMessage.Blob blob) {
                    said.append("the tool made a file (").append(blob.mimeType())
                            .append("), which this engine keeps nowhere.");
                }
            }
            return said.toString();
        }

        private void logRound(String roundId, int round, long roundStarted, String answer,
                List<Map<String, Object>> responses) {
            Map<String, Object> output = new LinkedHashMap<>();
            output.put("llm_response", answer);
            output.put("tool_responses", responses);
            Map<String, Object> metadata = timing(roundStarted);
            metadata.put("total_tokens", totalTokens);
            // The round goes before its model and tool calls, as Dify lists a parent before its children.
            int first = 0;
            while (first < log.size() && !roundId.equals(log.get(first).get("parent_id"))) {
                first++;
            }
            logged(first, entry(roundId, "ROUND " + round, null, "success", null, Map.of("output", output),
                    metadata));
        }

        /** Tells the run's listeners that an entry begins: Dify sends it with status start, then again as it ends. */
        private void begun(String id, String label, String parentId, long startedMillis, String provider) {
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("started_at", startedMillis / 1000.0);
            if (provider != null) {
                metadata.put("provider", provider);
            }
            ctx.emitAgentLog(id, label, parentId, "start", null, Map.of(), metadata);
        }

        /** Keeps the ended entry in the execution's log at {@code position}, and tells the run's listeners. */
        @SuppressWarnings("unchecked")
        private void logged(int position, Map<String, Object> entry) {
            log.add(position, entry);
            ctx.emitAgentLog((String) entry.get("id"), (String) entry.get("label"), (String) entry.get("parent_id"),
                    (String) entry.get("status"), (String) entry.get("error"), (Map<String, Object>) entry.get("data"),
                    (Map<String, Object>) entry.get("metadata"));
        }

        private void stream(String piece) {
            if (piece.isEmpty()) {
                return;
            }
            if (sink == null) {
                sink = EndStreams.of(ctx).streamFor(ctx, node.id(), "text").orElse(p -> { });
            }
            sink.accept(piece);
        }
    }

    private static Object arguments(String json) {
        if (json.isBlank()) {
            return Map.of();
        }
        try {
            return JsonText.parse(json);
        } catch (IllegalArgumentException e) {
            return json;
        }
    }

    /** The tool's schema without the parameters the node fixes, which the model must not be asked for. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> schemaWithout(Map<String, Object> schema, Set<String> fixed) {
        if (fixed.isEmpty()) {
            return schema;
        }
        Map<String, Object> copy = new LinkedHashMap<>(schema);
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            Map<String, Object> kept = new LinkedHashMap<>((Map<String, Object>) properties);
            kept.keySet().removeAll(fixed);
            copy.put("properties", kept);
        }
        if (schema.get("required") instanceof List<?> required) {
            copy.put("required", required.stream().filter(name -> !fixed.contains(String.valueOf(name))).toList());
        }
        return copy;
    }

    private static Map<String, Object> timing(long startedMillis) {
        long now = System.currentTimeMillis();
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("started_at", startedMillis / 1000.0);
        metadata.put("finished_at", now / 1000.0);
        metadata.put("elapsed_time", (now - startedMillis) / 1000.0);
        return metadata;
    }

    private static Map<String, Object> entry(String id, String label, String parentId, String status, String error,
            Map<String, Object> data, Map<String, Object> metadata) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", id);
        entry.put("label", label);
        entry.put("parent_id", parentId);
        entry.put("status", status);
        entry.put("error", error);
        entry.put("data", data);
        entry.put("metadata", metadata);
        return entry;
    }

    private static String shortened(String text) {
        return text.length() > LOGGED_TEXT ? text.substring(0, LOGGED_TEXT) + "…" : text;
    }
}
