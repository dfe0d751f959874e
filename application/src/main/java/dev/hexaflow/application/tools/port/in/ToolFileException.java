package dev.hexaflow.application.tools.port.in;

/** A tool file that cannot be kept or served, and why. */
public final class ToolFileException extends RuntimeException {

    /** Why. */
    public enum Reason {
        /** No tool file of that id (or extension) is kept. */
        NOT_FOUND,
        /** The URL's signature is not this server's, or it is older than a signed URL lasts. */
        FORBIDDEN,
        /** The tool made more bytes than a tool file may hold. */
        TOO_LARGE
    }

    private final Reason reason;

    public ToolFileException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
