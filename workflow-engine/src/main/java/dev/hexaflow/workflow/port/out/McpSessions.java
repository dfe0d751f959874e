package dev.hexaflow.workflow.port.out;

import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.workflow.engine.StopSignal;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Sessions with MCP servers an agent node names in its own settings (the MCP agent strategies' server config),
 * not registered with Hexaflow: one session per server for one run of the node, its tools listed once.
 */
public interface McpSessions {

    /**
     * A server as the node's config gives it: its name there, its URL and headers, whether it speaks the older
     * HTTP+SSE transport (else Streamable HTTP), how long the handshake and the list of tools may take, and how
     * long a call may (the runner bounds both further).
     */
    record Server(String name, URI url, Map<String, String> headers, boolean sse, Duration timeout,
            Duration callTimeout) {
        public Server {
            headers = Map.copyOf(headers);
        }
    }

    /** A tool the server lists: its name, description and JSON schema of its arguments. */
    record Tool(String name, String description, Map<String, Object> inputSchema) {
    }

    /**
     * Connects to the server (held to the outbound policy) and lists its tools.
     *
     * @throws ToolRunner.ToolException naming the server and what failed: refused by the policy, out of reach,
     *         too slow
     */
    Session open(Server server, StopSignal stop);

    /** An open session; closing it ends the connection. */
    interface Session extends AutoCloseable {

        List<Tool> tools();

        /** @throws ToolRunner.ToolException with what the model is told went wrong */
        List<ToolMessage> call(String tool, Map<String, Object> arguments, StopSignal stop);

        @Override
        void close();
    }
}
