package dev.hexaflow.domain.workflow;

import java.util.List;

/** A workflow that cannot run, with every problem found, so that all can be fixed at once. */
public class InvalidWorkflowException extends RuntimeException {

    private final List<WorkflowProblem> problems;

    public InvalidWorkflowException(List<WorkflowProblem> problems) {
        super(describe(problems));
        this.problems = List.copyOf(problems);
    }

    private static String describe(List<WorkflowProblem> problems) {
        StringBuilder text = new StringBuilder("The workflow has " + problems.size()
                + (problems.size() == 1 ? " problem:" : " problems:"));
        for (WorkflowProblem problem : problems) {
            text.append("\n- ").append(problem);
        }
        return text.toString();
    }

    public List<WorkflowProblem> problems() {
        return problems;
    }
}
