package dev.hexaflow.domain.tool;

/** Where a tool runs over MCP: the registered server and the name of the tool on it. */
public record McpToolAddress(McpServer server, String tool) {

    public McpToolAddress {
        if (server == null) {
            throw new IllegalArgumentException("server must not be null");
        }
        if (tool == null || tool.isBlank()) {
            throw new IllegalArgumentException("tool must not be blank");
        }
    }
}
