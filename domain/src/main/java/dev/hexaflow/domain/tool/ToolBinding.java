package dev.hexaflow.domain.tool;

/**
 * An operator's answer to "where does this tool run": a workflow's tool, named by provider and tool as its node
 * names them (a provider written the plugin way by Dify's organisation is the same as its short name), bound to a
 * target that runs it.
 */
public record ToolBinding(String provider, String tool, Target target) {

    /** The longest provider or tool name kept: Dify's are far shorter. */
    public static final int MAX_NAME = 1000;

    public ToolBinding {
        if (provider != null && provider.length() > MAX_NAME || tool != null && tool.length() > MAX_NAME) {
            throw new IllegalArgumentException("provider and tool must be at most " + MAX_NAME + " characters");
        }
        ToolRef named = new ToolRef(ToolProviderType.PLUGIN, provider, tool);
        provider = named.provider();
        tool = named.tool();
        if (target == null) {
            throw new IllegalArgumentException("target must not be null");
        }
    }

    /** Whether a tool node naming {@code ref} runs through this binding, whatever its provider type. */
    public boolean binds(ToolRef ref) {
        return ref.provider().equals(provider) && ref.tool().equals(tool);
    }

    /** {@code provider/tool}. */
    public String label() {
        return provider + "/" + tool;
    }

    /** What runs a bound tool. */
    public sealed interface Target {
    }

    /** A tool of a registered MCP server. */
    public record McpTool(String server, String tool) implements Target {
        public McpTool {
            if (server == null || server.isBlank()) {
                throw new IllegalArgumentException("server must not be blank");
            }
            if (tool == null || tool.isBlank()) {
                throw new IllegalArgumentException("tool must not be blank");
            }
            if (server.length() > 64 || tool.length() > MAX_NAME) {
                throw new IllegalArgumentException("the MCP server's name must be at most 64 characters, its tool's "
                        + "at most " + MAX_NAME);
            }
        }
    }

    /**
     * An operation of an OpenAPI 3 document: the document as a URL (read when the tool runs) or as its text
     * (JSON or YAML), the operation's {@code operationId}, and the credential its requests carry.
     */
    public record OpenApiOperation(String document, String operation, ApiCredential credential) implements Target {

        /** The longest document kept inline: a large API's description, not a payload. */
        public static final int MAX_DOCUMENT = 1024 * 1024;

        public OpenApiOperation {
            if (document == null || document.isBlank()) {
                throw new IllegalArgumentException("document must be an OpenAPI document's URL or its text");
            }
            if (document.length() > MAX_DOCUMENT) {
                throw new IllegalArgumentException("document must be at most " + MAX_DOCUMENT + " characters");
            }
            if (operation == null || operation.isBlank()) {
                throw new IllegalArgumentException("operation must name an operationId of the document");
            }
            if (operation.length() > MAX_NAME) {
                throw new IllegalArgumentException("operation must be at most " + MAX_NAME + " characters");
            }
            document = document.strip();
            operation = operation.strip();
            credential = credential == null ? new ApiCredential.None() : credential;
        }

        /** An operation called without a credential. */
        public OpenApiOperation(String document, String operation) {
            this(document, operation, new ApiCredential.None());
        }

        /** Whether the document is given by URL rather than inline. */
        public boolean byUrl() {
            return !document.contains("\n") && (document.startsWith("http://") || document.startsWith("https://"));
        }
    }

    /** Another app of this server, run as a run of its own with the tool's arguments as its inputs. */
    public record App(String appId) implements Target {
        public App {
            if (appId == null || appId.isBlank()) {
                throw new IllegalArgumentException("app must be an app's id");
            }
            if (appId.length() > 255) {
                throw new IllegalArgumentException("app must be at most 255 characters");
            }
            appId = appId.strip();
        }
    }
}
