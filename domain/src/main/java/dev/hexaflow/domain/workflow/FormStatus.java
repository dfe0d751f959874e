package dev.hexaflow.domain.workflow;

/** A form's states: waiting for its answer, answered, expired unanswered (its node took __timeout), or closed. */
public enum FormStatus {
    WAITING("waiting"), SUBMITTED("submitted"), TIMEOUT("timeout"), EXPIRED("expired");

    private final String wireName;

    FormStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static FormStatus fromWireName(String name) {
        for (FormStatus status : values()) {
            if (status.wireName.equals(name)) {
                return status;
            }
        }
        throw new IllegalArgumentException("no form status " + name);
    }
}
