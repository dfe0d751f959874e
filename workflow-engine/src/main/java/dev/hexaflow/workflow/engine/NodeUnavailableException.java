package dev.hexaflow.workflow.engine;

/**
 * A node cannot run on this server as it is configured (no model provider, say): the run is refused before it
 * starts, with a code clients know (Dify's {@code provider_not_initialize}).
 */
public class NodeUnavailableException extends RuntimeException {

    private final String code;

    public NodeUnavailableException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
