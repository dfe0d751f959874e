package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.nodes.AgentSettings.AgentTool;
import dev.hexaflow.workflow.port.out.McpSessions;
import dev.hexaflow.workflow.port.out.McpSessions.Server;
import dev.hexaflow.workflow.port.out.McpSessions.Session;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tools of an MCP strategy's servers for one run of the agent: a session with each server, opened as the run
 * begins (a server that cannot be reached or listed fails the node, naming it, as the plugins fail when they fetch
 * the tools) and closed when it ends. A tool whose name is taken (by the node's own tools or an earlier server) is
 * offered as {@code server__tool}, as junjiem's plugin names it.
 */
final class McpServerTools implements AutoCloseable {

    private final List<Session> sessions = new ArrayList<>();

    /** Opens a session with every server, or fails the node naming the first that fails. */
    static McpServerTools open(List<Server> servers, McpSessions client, StopSignal stop) {
        McpServerTools tools = new McpServerTools();
        for (Server server : servers) {
            try {
                tools.sessions.add(client.open(server, stop));
            } catch (ToolRunner.ToolException e) {
                tools.close();
                throw new NodeFailure("AgentNodeError", "Failed to get the tools of MCP server " + server.name()
                        + ": " + e.getMessage(), e);
            }
        }
        return tools;
    }

    /** The servers' tools, each under a name not in {@code taken}. */
    List<OfferedTool> offer(Set<String> taken, List<Server> servers) {
        List<OfferedTool> offered = new ArrayList<>();
        Set<String> names = new HashSet<>(taken);
        for (int i = 0; i < sessions.size(); i++) {
            Session session = sessions.get(i);
            String server = servers.get(i).name();
            for (McpSessions.Tool tool : session.tools()) {
                String name = names.contains(tool.name()) ? server + "__" + tool.name() : tool.name();
                if (!names.add(name)) {
                    continue;
                }
                AgentTool described = new AgentTool(new ToolRef(ToolProviderType.MCP, server, tool.name()),
                        tool.description(), Map.of());
                offered.add(new OfferedTool(described, (arguments, stop) -> session.call(tool.name(), arguments,
                        stop), new ModelProvider.Tool(name, tool.description(), tool.inputSchema()), Map.of()));
            }
        }
        return offered;
    }

    @Override
    public void close() {
        sessions.forEach(Session::close);
    }
}
