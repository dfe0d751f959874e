package dev.hexaflow.domain.chat;

/** A conversation variable was given a value of another type; the message is Dify's. */
public class VariableTypeMismatchException extends RuntimeException {

    public VariableTypeMismatchException(String message) {
        super(message);
    }
}
