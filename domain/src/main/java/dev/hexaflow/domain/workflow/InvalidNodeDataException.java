package dev.hexaflow.domain.workflow;

/** A node's DSL data has a field of the wrong shape; the message names the field. */
public class InvalidNodeDataException extends RuntimeException {

    private final String field;

    public InvalidNodeDataException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
