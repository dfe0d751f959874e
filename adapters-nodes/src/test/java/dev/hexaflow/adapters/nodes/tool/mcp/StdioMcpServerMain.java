package dev.hexaflow.adapters.nodes.tool.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

/** An MCP server over stdio serving {@link McpTestTools}: the tests start it as a java process. */
public final class StdioMcpServerMain {

    private StdioMcpServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
                .serverInfo("stdio-test", "1")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .validateToolInputs(false)
                .tools(McpTestTools.all())
                .build();
        // The transport reads stdin on threads of its own; the process lives until its client closes stdin.
        Thread.currentThread().join();
    }
}
