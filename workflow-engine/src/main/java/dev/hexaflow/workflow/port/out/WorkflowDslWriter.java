package dev.hexaflow.workflow.port.out;

import dev.hexaflow.domain.workflow.Workflow;

/** Writes a workflow as a Dify app DSL file that the reader (and Dify) read back to the same workflow. */
public interface WorkflowDslWriter {

    String write(Workflow workflow);
}
