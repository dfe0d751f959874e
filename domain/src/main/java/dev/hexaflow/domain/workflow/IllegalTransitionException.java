package dev.hexaflow.domain.workflow;

/** A status change that the lifecycle forbids, such as a finished run becoming running again. */
public class IllegalTransitionException extends IllegalStateException {

    public IllegalTransitionException(String what, Object from, Object to) {
        super(what + " cannot go from " + from + " to " + to);
    }
}
