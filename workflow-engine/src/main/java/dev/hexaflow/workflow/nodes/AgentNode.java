package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.VariableSelector;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.nodes.AgentSettings.AgentTool;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import dev.hexaflow.workflow.port.out.McpSessions;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
 * Its {@code dataset_ids} (set by the import of an agent-chat app) are offered as retrieval tools: {@link KnowledgeTools}.
 *
 * <p>The node reads its {@link AgentSettings}; an {@link AgentRun} plays one run with the
 * {@link FunctionCallingStrategy} or the {@link ReActStrategy}, and keeps its {@link AgentLog}.
 */
public final class AgentNode implements NodeExecutor {

    private final ModelProvider models;
    private final List<ToolRunner> runners;
    private final Optional<KnowledgeRetriever> knowledge;
    private final Optional<McpSessions> mcp;

    public AgentNode(ModelProvider models, List<ToolRunner> runners) {
        this(models, runners, null, null);
    }

    /**
     * With the knowledge bases the node may offer as retrieval tools ({@code dataset_ids}) and the client of the
     * MCP servers an MCP strategy names; none when null.
     */
    public AgentNode(ModelProvider models, List<ToolRunner> runners, KnowledgeRetriever knowledge,
            McpSessions mcp) {
        this.models = models;
        this.runners = List.copyOf(runners);
        this.knowledge = Optional.ofNullable(knowledge);
        this.mcp = Optional.ofNullable(mcp);
    }

    @Override
    public NodeType type() {
        return NodeType.AGENT;
    }

    @Override
    public void checkReady(Node node) {
        ModelNodes.checkReady(models);
    }

    @Override
    public PreparedNode prepare(Node node) {
        AgentSettings settings = AgentSettings.read(node.data());
        List<NodeArgument> params = new ArrayList<>(List.of(settings.instruction(), settings.query()));
        settings.tools().forEach(tool -> params.addAll(tool.fixed().values()));
        List<VariableSelector> references = NodeArgument.references(params);
        Set<String> outputs = Set.of("text", "files", "json", "usage");
        return PreparedNode.of(references, Optional.of(outputs),
                ctx -> new AgentRun(settings, node, ctx, models, this::runnerOf, knowledge, mcp).run());
    }

    /** Names the tools no runner runs now and a strategy Hexaflow does not have, each with what to do. */
    @Override
    public List<String> warnings(Node node) {
        AgentSettings settings = AgentSettings.read(node.data());
        List<String> warnings = new ArrayList<>();
        if (settings.strategy().isEmpty()) {
            warnings.add(AgentSettings.unknownStrategy(settings.strategyName(), settings.strategyProvider()));
        } else if (settings.mcpServers().isPresent() && mcp.isEmpty()) {
            warnings.add("The agent strategy " + settings.strategyName() + " names MCP servers and this engine "
                    + "has no MCP client, so a run that reaches it fails.");
        }
        for (AgentTool tool : settings.tools()) {
            if (runnerOf(tool.ref()).isEmpty()) {
                warnings.add(UnboundTools.warning(tool.ref()));
            }
        }
        warnings.addAll(settings.knowledge().warnings(knowledge, node.data().string("title", node.id())));
        return warnings;
    }

    private Optional<ToolRunner> runnerOf(ToolRef tool) {
        for (ToolRunner runner : runners) {
            if (runner.runs(tool)) {
                return Optional.of(runner);
            }
        }
        return Optional.empty();
    }
}
