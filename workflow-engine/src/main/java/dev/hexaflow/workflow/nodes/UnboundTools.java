package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.tool.ToolRef;

/**
 * What Hexaflow says of a tool no runner runs (neither built in nor bound by an operator): the same sentence at
 * import, as a warning, and in the error of a run that reaches it, so that both name the tool and how to bind it.
 */
public final class UnboundTools {

    private UnboundTools() {
    }

    /** The import's warning for an app that names the tool. */
    public static String warning(ToolRef tool) {
        return "The tool " + tool.label() + " (" + tool.type().wireName() + ") is not built in and not bound, so"
                + " a run that reaches it fails; " + howToBind(tool);
    }

    /** The error of a run that reaches the tool. */
    public static String runError(ToolRef tool) {
        return "the tool " + tool.label() + " (" + tool.type().wireName() + ") is not built in and not bound; "
                + howToBind(tool);
    }

    /** The binding that suits the tool's kind: an OpenAPI operation for an api tool, an app for a workflow tool. */
    private static String howToBind(ToolRef tool) {
        String flag = switch (tool.type()) {
            case API -> "--openapi DOCUMENT OPERATION_ID";
            case WORKFLOW -> "--app APP_ID";
            default -> "--mcp SERVER TOOL";
        };
        String target = switch (tool.type()) {
            case API -> "\"openapi\": {\"document\": ..., \"operation\": ...}";
            case WORKFLOW -> "\"app\": ...";
            default -> "\"mcp\": {\"server\": ..., \"tool\": ...}";
        };
        return "bind it with `hexaflow tools bind " + tool.provider() + " " + tool.tool() + " " + flag
                + "` or PUT /admin/tools/bindings {\"provider\": \"" + tool.provider() + "\", \"tool\": \""
                + tool.tool() + "\", " + target + "}; under hexaflow run or chat, bind it in a --tools BINDINGS.yml "
                + "file (see hexaflow --help).";
    }
}
