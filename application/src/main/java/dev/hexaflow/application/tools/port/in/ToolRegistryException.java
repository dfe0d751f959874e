package dev.hexaflow.application.tools.port.in;

/** A change to the tool registry that is refused, with what is wrong and how to put it right. */
public final class ToolRegistryException extends RuntimeException {

    /** Why it is refused. */
    public enum Reason {
        /** The server, or the binding, named does not exist. */
        NOT_FOUND,
        /** The request names something that does not exist, or asks for what is not supported. */
        INVALID,
        /** Something else still depends on what is to be removed. */
        IN_USE
    }

    private final Reason reason;

    public ToolRegistryException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
