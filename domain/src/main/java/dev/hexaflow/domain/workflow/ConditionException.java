package dev.hexaflow.domain.workflow;

/** A condition cannot be evaluated: its variable is missing or its value is of a type the operator refuses. */
public class ConditionException extends RuntimeException {

    public ConditionException(String message) {
        super(message);
    }
}
