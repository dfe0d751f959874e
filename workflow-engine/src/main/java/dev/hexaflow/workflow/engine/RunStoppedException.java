package dev.hexaflow.workflow.engine;

/** The run was stopped (by a user, a failure elsewhere, or a limit) while this node ran. */
public class RunStoppedException extends RuntimeException {

    public RunStoppedException() {
        super("the run was stopped", null, false, false);
    }
}
