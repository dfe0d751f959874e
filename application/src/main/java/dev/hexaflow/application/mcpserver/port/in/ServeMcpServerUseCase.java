package dev.hexaflow.application.mcpserver.port.in;

import dev.hexaflow.application.common.ApiException;
import java.util.Map;

/**
 * The calls at an app's MCP server URL: the tool it lists, and a call of it, which runs the app as a run of its own
 * (kept, listed in its logs, metered like any run) for the server's end user.
 */
public interface ServeMcpServerUseCase {

    /**
     * The tool of the server whose URL has this code.
     *
     * @throws ApiException NOT_FOUND for an unknown code or a server that is off; APP_UNAVAILABLE when the app has no
     *                      published workflow
     */
    McpAppTool open(String code);

    /**
     * Runs the app with these arguments and waits for its end, at most the server's wait.
     *
     * @throws ApiException NOT_FOUND as {@link #open}; INVALID_PARAM for arguments its form refuses; another kind when
     *                      the run cannot start (too many runs, a full store)
     */
    McpToolAnswer call(String code, Map<String, Object> arguments);

    /**
     * @param serverId    the server's id, which also names its end user
     * @param name        the tool's name: the app's
     * @param description the tool's description and the server's instructions
     * @param inputSchema JSON Schema of the arguments (Dify's)
     * @param version     what the tool was made from (the server's last change and the app's published version): a
     *                    caller may keep what it made of the tool while this is unchanged
     */
    record McpAppTool(String serverId, String appId, String name, String description, Map<String, Object> inputSchema,
            String version) {
    }

    /**
     * @param text    the workflow's outputs as JSON text, or the chat's answer
     * @param failed  whether the run failed (the text is then its error), stopped, or outlasted the wait
     * @param runId   the run the call started
     */
    record McpToolAnswer(String text, boolean failed, String runId) {
    }
}
