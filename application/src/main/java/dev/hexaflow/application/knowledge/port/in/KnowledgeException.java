package dev.hexaflow.application.knowledge.port.in;

/** A knowledge request that is refused, with what is wrong. */
public final class KnowledgeException extends RuntimeException {

    /** Why it is refused. */
    public enum Reason {
        /** The base, document or chunk named does not exist. */
        NOT_FOUND,
        /** The request is malformed, or asks what the base cannot do. */
        INVALID,
        /** A base with this id exists already. */
        CONFLICT,
        /** The bearer token is no dataset key that was issued and not revoked. */
        UNAUTHORIZED,
        /** A document action that is not one, or that a document's state does not allow (Dify's invalid_action). */
        INVALID_ACTION,
        /** An edit of an archived document (Dify's archived_document_immutable). */
        ARCHIVED
    }

    /** Dify's ArchivedDocumentImmutableError, for an edit of an archived document. */
    public static KnowledgeException archived() {
        return new KnowledgeException(Reason.ARCHIVED, "The archived document is not editable.");
    }

    private final Reason reason;

    public KnowledgeException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
