package dev.hexaflow.workflow.engine;

/**
 * A node run that failed with a message for the user; {@code type} names the kind of error, as Dify's
 * error_type does in fail-branch outputs.
 */
public class NodeFailure extends RuntimeException {

    private final String type;

    public NodeFailure(String message) {
        this("NodeRunError", message, null);
    }

    public NodeFailure(String type, String message, Throwable cause) {
        super(message, cause);
        this.type = type;
    }

    public String type() {
        return type;
    }
}
