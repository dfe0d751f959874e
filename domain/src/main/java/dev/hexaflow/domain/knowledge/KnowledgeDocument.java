package dev.hexaflow.domain.knowledge;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A document of a knowledge base: its text was split into chunks, kept and indexed. Its content hash makes adding
 * the same text again a no-op; its metadata (Dify's {@code doc_metadata}) is what metadata filters test.
 *
 * @param source Dify's {@code data_source_type}: {@code upload_file} or, for text given whole, {@code text}
 * @param error why indexing failed, when {@code status} is {@link DocumentStatus#ERROR}
 * @param archivedAt when it was archived (Dify's {@code archived_at}): an archived document is out of searches and
 *     not editable until it is un-archived
 */
public record KnowledgeDocument(String id, String baseId, String name, String source, int wordCount,
        String contentHash, DocumentStatus status, Optional<String> error, boolean enabled,
        Map<String, String> metadata, Instant created, Optional<Instant> archivedAt) {

    public static final int MAX_NAME = 255;

    public KnowledgeDocument {
        if (id == null || id.isBlank() || baseId == null || baseId.isBlank()) {
            throw new IllegalArgumentException("id and baseId must not be blank");
        }
        if (name == null || name.isBlank() || name.length() > MAX_NAME) {
            throw new IllegalArgumentException("name must be 1 to " + MAX_NAME + " characters");
        }
        if (source == null || contentHash == null || status == null || created == null) {
            throw new IllegalArgumentException("source, contentHash, status and created must not be null");
        }
        error = error == null ? Optional.empty() : error;
        if (status == DocumentStatus.ERROR && error.isEmpty()) {
            throw new IllegalArgumentException("a document in error must say why");
        }
        if (status != DocumentStatus.ERROR) {
            error = Optional.empty();
        }
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        archivedAt = archivedAt == null ? Optional.empty() : archivedAt;
    }

    /** A document not archived. */
    public KnowledgeDocument(String id, String baseId, String name, String source, int wordCount,
            String contentHash, DocumentStatus status, Optional<String> error, boolean enabled,
            Map<String, String> metadata, Instant created) {
        this(id, baseId, name, source, wordCount, contentHash, status, error, enabled, metadata, created,
                Optional.empty());
    }

    public KnowledgeDocument completed() {
        return move(DocumentStatus.COMPLETED, null);
    }

    public KnowledgeDocument failed(String reason) {
        return move(DocumentStatus.ERROR, reason == null || reason.isBlank() ? "indexing failed" : reason);
    }

    public KnowledgeDocument reindexing() {
        return move(DocumentStatus.INDEXING, null);
    }

    public KnowledgeDocument withEnabled(boolean on) {
        return new KnowledgeDocument(id, baseId, name, source, wordCount, contentHash, status, error, on, metadata,
                created, archivedAt);
    }

    /** The document with these metadata values (Dify's {@code doc_metadata}), by field name. */
    public KnowledgeDocument withMetadata(Map<String, String> values) {
        return new KnowledgeDocument(id, baseId, name, source, wordCount, contentHash, status, error, enabled, values,
                created, archivedAt);
    }

    /** The document archived at {@code at}, or, with none, un-archived. */
    public KnowledgeDocument withArchivedAt(Optional<Instant> at) {
        return new KnowledgeDocument(id, baseId, name, source, wordCount, contentHash, status, error, enabled,
                metadata, created, at);
    }

    /** Dify's {@code archived}. */
    public boolean archived() {
        return archivedAt.isPresent();
    }

    /** Whether its chunks are found by searches: indexed, not turned off and not archived. */
    public boolean searchable() {
        return enabled && !archived() && status == DocumentStatus.COMPLETED;
    }

    private KnowledgeDocument move(DocumentStatus next, String reason) {
        if (!status.canBecome(next)) {
            throw new IllegalStateException("a document " + status.wireName() + " cannot become " + next.wireName());
        }
        return new KnowledgeDocument(id, baseId, name, source, wordCount, contentHash, next,
                Optional.ofNullable(reason), enabled, metadata, created, archivedAt);
    }
}
