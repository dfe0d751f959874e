package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.nodes.AgentSettings.AgentTool;
import dev.hexaflow.workflow.nodes.AgentSettings.Strategy;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import dev.hexaflow.workflow.port.out.McpSessions;
import dev.hexaflow.workflow.port.out.McpSessions.Server;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.workflow.port.out.ModelProvider.Usage;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One run of an agent node: its conversation, what the tools gave, the log and the usage so far. Its strategy
 * plays the rounds through {@link #call}, {@link #invoke} and {@link #roundEnded}.
 */
final class AgentRun {

    /** Dify's {@code json} output when the agent sent no JSON message. */
    private static final List<Object> NO_JSON = List.of(Map.of("data", List.of()));

    private final AgentSettings settings;
    private final Node node;
    private final NodeContext ctx;
    private final ModelProvider models;
    private final Function<ToolRef, Optional<ToolRunner>> runnerOf;
    private final AgentLog log;
    private final StringBuilder text = new StringBuilder();
    private final List<FileValue> files = new ArrayList<>();
    private final long started = System.nanoTime();
    private long promptTokens;
    private long completionTokens;
    private long totalTokens;
    private final Optional<KnowledgeRetriever> knowledge;
    private Consumer<String> sink;

    private final Optional<McpSessions> mcp;

    AgentRun(AgentSettings settings, Node node, NodeContext ctx, ModelProvider models,
            Function<ToolRef, Optional<ToolRunner>> runnerOf, Optional<KnowledgeRetriever> knowledge,
            Optional<McpSessions> mcp) {
        this.knowledge = knowledge;
        this.mcp = mcp;
        this.settings = settings;
        this.node = node;
        this.ctx = ctx;
        this.models = models;
        this.runnerOf = runnerOf;
        this.log = new AgentLog(ctx);
    }

    NodeResult run() {
        Strategy strategy = settings.strategy().orElseThrow(() -> new NodeFailure("AgentNodeError",
                "Failed to get agent strategy: " + AgentSettings.unknownStrategy(settings.strategyName(),
                        settings.strategyProvider()), null));
        VariablePool pool = ctx.pool();
        String instruction = Values.text(settings.instruction().resolve(pool));
        String query = Values.text(settings.query().resolve(pool));
        Map<String, OfferedTool> tools = offer(pool);
        List<Server> servers = settings.mcpServers().map(config -> config.resolve(pool)).orElse(List.of());
        if (!servers.isEmpty() && mcp.isEmpty()) {
            throw new NodeFailure("AgentNodeError", "Failed to get agent strategy: this engine has no MCP client "
                    + "for the servers of " + settings.strategyName(), null);
        }
        try (McpServerTools serverTools = servers.isEmpty() ? new McpServerTools()
                : McpServerTools.open(servers, mcp.get(), ctx)) {
            serverTools.offer(tools.keySet(), servers).forEach(tool -> tools.put(tool.function().name(), tool));
            return run(strategy, instruction, query, tools);
        }
    }

    private NodeResult run(Strategy strategy, String instruction, String query, Map<String, OfferedTool> tools) {
        List<ChatMessage> history = settings.memory().isPresent() && ctx.chatTurn().isPresent()
                ? settings.memory().get().historyMessages(ctx.chatTurn().get()) : List.of();
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("model", Map.of("provider", settings.provider(), "model", settings.model()));
        inputs.put("tools", tools.values().stream().map(t -> t.tool().ref().label()).toList());
        inputs.put("instruction", instruction);
        inputs.put("query", query);
        inputs.put("maximum_iterations", settings.maximumIterations());
        if (strategy.react()) {
            ReActStrategy.run(this, instruction, history, query, tools);
        } else {
            FunctionCallingStrategy.run(this, instruction, history, query, tools);
        }
        Usage usage = new Usage(promptTokens, completionTokens, totalTokens);
        Map<String, Object> usageMap = ModelNodes.usage(usage, (System.nanoTime() - started) / 1e9);
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("text", text.toString());
        outputs.put("files", files);
        outputs.put("json", NO_JSON);
        outputs.put("usage", usageMap);
        Map<String, Object> process = new LinkedHashMap<>();
        process.put("agent_strategy", settings.strategyName());
        process.put("model_provider", settings.provider());
        process.put("model_name", settings.model());
        process.put("usage", usageMap);
        return new NodeResult(inputs, process, outputs, null, totalTokens, null).withAgentLog(log.entries());
    }

    /** The node's tools as the model is offered them, each described by the runner that runs it. */
    private Map<String, OfferedTool> offer(VariablePool pool) {
        Map<String, OfferedTool> offered = new LinkedHashMap<>();
        for (AgentTool tool : settings.tools()) {
            ToolRunner runner = runnerOf.apply(tool.ref()).orElseThrow(() -> new NodeFailure("AgentNodeError",
                    "Failed to get tool runtime: " + UnboundTools.runError(tool.ref()), null));
            ToolDescription description = runner.describe(tool.ref()).orElseThrow(() -> new NodeFailure(
                    "AgentNodeError", "Failed to get tool runtime: " + UnboundTools.runError(tool.ref()),
                    null));
            offered.putIfAbsent(tool.ref().tool(), OfferedTool.of(tool, runner, description, pool));
        }
        settings.knowledge().offer(knowledge).forEach(tool -> offered.putIfAbsent(tool.function().name(), tool));
        return offered;
    }

    int maximumIterations() {
        return settings.maximumIterations();
    }

    void checkStopped() {
        ctx.checkStopped();
    }

    /** Tells the run's listeners that round {@code round} begins. */
    void roundBegun(String roundId, int round, long roundStarted) {
        log.begun(roundId, "ROUND " + round, null, roundStarted, null);
    }

    void roundEnded(String roundId, int round, long roundStarted, String answer,
            List<Map<String, Object>> responses) {
        log.roundEnded(roundId, round, roundStarted, answer, responses, totalTokens);
    }

    /** Adds to the node's {@code text} output. */
    void appendText(String piece) {
        text.append(piece);
    }

    ChatResult call(String roundId, List<ChatMessage> messages, List<ModelProvider.Tool> functions,
            Map<String, Object> extra, Consumer<String> onText) {
        Map<String, Object> parameters = new LinkedHashMap<>(settings.completionParams());
        parameters.putAll(extra);
        long callStarted = System.currentTimeMillis();
        log.begun(roundId + "-thought", settings.model() + " Thought", roundId, callStarted, settings.provider());
        ChatResult result;
        try {
            result = models.chat(new ChatRequest(settings.provider(), settings.model(), messages, parameters,
                    functions), onText, ctx);
        } catch (ModelProvider.ModelException e) {
            ctx.checkStopped();
            throw new NodeFailure("AgentNodeError", "Failed to invoke agent: " + e.getMessage(), e);
        }
        promptTokens += result.usage().promptTokens();
        completionTokens += result.usage().completionTokens();
        totalTokens += result.usage().totalTokens();
        log.modelCallEnded(roundId, settings.model(), settings.provider(), callStarted, result);
        return result;
    }

    /**
     * Runs one call the model made and answers what the model is told: the tool's messages as text, or, when
     * the tool is unknown or fails, the error, so that the model can go on as Dify's strategies let it.
     */
    String invoke(String roundId, String callId, String name, Object arguments, Map<String, OfferedTool> tools) {
        long callStarted = System.currentTimeMillis();
        OfferedTool tool = tools.get(name);
        String provider = tool == null ? "" : tool.tool().ref().provider();
        log.begun(roundId + "-call-" + callId, "CALL " + name, roundId, callStarted, provider);
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
                response = answer(tool.runner().run(given, ctx));
            } catch (ToolRunner.ToolException e) {
                ctx.checkStopped();
                response = "tool invoke error: " + e.getMessage();
                error = e.getMessage();
            }
        }
        log.toolCallEnded(roundId, callId, name, provider, callStarted, given.isEmpty() ? arguments : given,
                response, error);
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

    /** Streams a piece of the {@code text} output to the end output that shows it, if one does. */
    void stream(String piece) {
        if (piece.isEmpty()) {
            return;
        }
        if (sink == null) {
            sink = EndStreams.of(ctx).streamFor(ctx, node.id(), "text").orElse(p -> { });
        }
        sink.accept(piece);
    }
}
