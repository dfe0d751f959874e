package dev.hexaflow.workflow.engine;

/** The inputs do not fit the start form; the message is Dify's for the first field at fault. */
public class InvalidInputsException extends RuntimeException {

    public InvalidInputsException(String message) {
        super(message);
    }
}
