package dev.hexaflow.domain.knowledge;

/** Where a document is in its indexing, by Dify's {@code indexing_status} names. */
public enum DocumentStatus {
    INDEXING("indexing"),
    COMPLETED("completed"),
    ERROR("error");

    private final String wireName;

    DocumentStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** A document is indexed again from any state (a retry, an edit); it completes or fails only while indexing. */
    public boolean canBecome(DocumentStatus next) {
        return next == INDEXING || this == INDEXING;
    }
}
