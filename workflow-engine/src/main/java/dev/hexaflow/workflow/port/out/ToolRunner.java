package dev.hexaflow.workflow.port.out;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs tools of a kind (Dify's built-ins natively, or tools bound to an MCP server, an OpenAPI operation or an
 * app); the tool node asks each runner it has, in order, for the tool it names.
 */
public interface ToolRunner {

    /** The tool's description when this runner runs it now; empty when it does not (not built in, not bound). */
    Optional<ToolDescription> describe(ToolRef tool);

    /**
     * Whether this runner runs the tool, answered at once: a runner that must ask a server to describe a tool
     * (MCP) answers from its bindings alone, so that an import never waits on a server.
     */
    default boolean runs(ToolRef tool) {
        return describe(tool).isPresent();
    }

    /**
     * Runs the tool once with its arguments (already resolved from the variable pool), within the runner's time
     * limit and until {@code stop}.
     *
     * @throws ToolException with the message the node reports after Dify's "Failed to invoke tool ...: "
     * @throws dev.hexaflow.workflow.engine.PauseRequested when the tool waits for a person (an app run as a tool
     *         paused): the tool node pauses with that form, and runs again once it is answered
     */
    List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop);

    /** A tool call that failed: the tool's own error, a server down or slow, arguments its schema refuses. */
    class ToolException extends RuntimeException {
        public ToolException(String message) {
            super(message);
        }

        public ToolException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
