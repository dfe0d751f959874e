package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.HumanInputForm;

/**
 * Thrown by a node that waits for a person (a human-input node running for the first time): the engine sends its
 * form out, marks the node paused and goes on with whatever else can run; the run pauses once nothing else can.
 */
public final class PauseRequested extends RuntimeException {

    private final transient HumanInputForm form;

    public PauseRequested(HumanInputForm form) {
        super("waiting for the form " + form.formId(), null, false, false);
        this.form = form;
    }

    public HumanInputForm form() {
        return form;
    }
}
