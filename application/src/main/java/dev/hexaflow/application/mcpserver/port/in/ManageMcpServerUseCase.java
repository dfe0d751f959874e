package dev.hexaflow.application.mcpserver.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.util.Map;

/**
 * What an operator sees and sets of an app's MCP server (admin API, command line): shown, switched on (made at the
 * first switch, with a new code) and off, described, and given a new URL (the old one stops at once).
 *
 * @throws ApiException NOT_FOUND for an unknown app
 */
public interface ManageMcpServerUseCase {

    /** The app's server, or an answer with no server when it was never turned on. */
    McpServerView show(String appId);

    McpServerView setEnabled(String appId, boolean enabled);

    /** A new code; the old URL stops at once. @throws ApiException NOT_FOUND when the app has no server yet */
    McpServerView newUrl(String appId);

    /**
     * The tool's description (blank: the app's own) and a description per input.
     *
     * @throws ApiException INVALID_PARAM for a description or parameters past their limits
     */
    McpServerView describe(String appId, String description, Map<String, String> parameters);

    /**
     * @param server the app's server, or null when it has none
     * @param toolName the tool it lists: the app's name
     */
    record McpServerView(String appId, String toolName, AppMcpServer server) {
    }
}
