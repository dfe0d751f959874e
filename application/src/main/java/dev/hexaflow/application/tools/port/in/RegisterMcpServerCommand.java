package dev.hexaflow.application.tools.port.in;

import dev.hexaflow.domain.tool.McpServer;

/** Register (or register anew) an MCP server under its name. */
public record RegisterMcpServerCommand(McpServer server) {

    public RegisterMcpServerCommand {
        if (server == null) {
            throw new IllegalArgumentException("server must not be null");
        }
    }
}
