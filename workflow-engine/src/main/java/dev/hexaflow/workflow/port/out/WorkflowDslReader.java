package dev.hexaflow.workflow.port.out;

import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Workflow;

/** Reads a Dify app DSL file into a workflow, refusing the whole file with every structural problem listed. */
public interface WorkflowDslReader {

    /** @throws InvalidWorkflowException listing what is wrong with the file's structure */
    Workflow read(byte[] dsl);
}
