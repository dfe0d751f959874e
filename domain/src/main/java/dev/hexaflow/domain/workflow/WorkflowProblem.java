package dev.hexaflow.domain.workflow;

/** One thing wrong with a workflow, naming the node (id and title) where there is one. */
public record WorkflowProblem(String nodeId, String title, String message) {

    public static WorkflowProblem ofFile(String message) {
        return new WorkflowProblem(null, null, message);
    }

    public static WorkflowProblem of(Node node, String message) {
        return new WorkflowProblem(node.id(), node.title(), message);
    }

    @Override
    public String toString() {
        if (nodeId == null) {
            return message;
        }
        return "node " + nodeId + (title == null || title.isEmpty() ? "" : " (" + title + ")") + ": " + message;
    }
}
