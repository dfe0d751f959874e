package dev.hexaflow.domain.workflow;

/** A node's DSL data has a field of the wrong shape; the message names the field. */
public class InvalidNodeDataException extends RuntimeException {

    private final String field;
    private final String problem;

    public InvalidNodeDataException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
        this.problem = problem;
    }

    public String field() {
        return field;
    }

    public String problem() {
        return problem;
    }

    /** The same problem, its field named from the node's data down ({@code retry_config.max_retries}). */
    public InvalidNodeDataException within(String parent) {
        return new InvalidNodeDataException(parent + "." + field, problem);
    }
}
