package dev.hexaflow.adapters.persistence.jdbi;

import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.instant;
import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.json;
import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.read;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Knowledge documents in {@code knowledge_document}, each naming the instance that saved it, and the ending of
 * those left {@code indexing}.
 */
final class JdbiKnowledgeDocuments {

    private final Jdbi jdbi;
    private final SqlDialect dialect;
    private final String instanceId;

    /**
     * @param instanceId the instance that writes here, which each document it saves names; null where one instance
     *                   is alone
     */
    JdbiKnowledgeDocuments(Jdbi jdbi, SqlDialect dialect, String instanceId) {
        this.jdbi = jdbi;
        this.dialect = dialect;
        this.instanceId = instanceId;
    }

    void saveDocument(KnowledgeDocument d) {
        jdbi.useHandle(h -> saveDocument(h, d));
    }

    void saveDocuments(List<KnowledgeDocument> documents) {
        jdbi.useTransaction(h -> documents.forEach(d -> saveDocument(h, d)));
    }

    /** Saves a document with the caller's handle, in its transaction. */
    void saveDocument(Handle h, KnowledgeDocument d) {
        h.createUpdate(dialect.upsert("knowledge_document", "id", "id, base_id, name, source, word_count, "
                + "content_hash, status, error, enabled, metadata, created_at, instance_id, archived_at", ":id, :base, "
                + ":name, :source, :words, :hash, :status, :error, :enabled, :metadata, :created, :instance, "
                + ":archived"))
                .bind("id", d.id()).bind("base", d.baseId()).bind("name", d.name()).bind("source", d.source())
                .bind("words", d.wordCount()).bind("hash", d.contentHash()).bind("status", d.status().wireName())
                .bind("error", d.error().orElse(null)).bind("enabled", d.enabled())
                .bind("metadata", json(d.metadata()))
                .bind("created", OffsetDateTime.ofInstant(d.created(), ZoneOffset.UTC))
                .bind("instance", instanceId)
                .bind("archived", d.archivedAt().map(at -> OffsetDateTime.ofInstant(at, ZoneOffset.UTC))
                        .orElse(null)).execute();
    }

    Optional<KnowledgeDocument> findDocument(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_document WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> document(rs)).findOne());
    }

    List<KnowledgeDocument> documents(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_document WHERE base_id = :base "
                + "ORDER BY created_at, id").bind("base", baseId).map((rs, ctx) -> document(rs)).list());
    }

    Optional<KnowledgeDocument> findDocumentByHash(String baseId, String contentHash) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_document WHERE base_id = :base AND "
                + "content_hash = :hash ORDER BY created_at LIMIT 1").bind("base", baseId).bind("hash", contentHash)
                .map((rs, ctx) -> document(rs)).findOne());
    }

    List<KnowledgeDocument> failInterruptedDocuments(String reason, Set<String> spared) {
        return failIndexing(reason, "", Map.of(), spared);
    }

    /**
     * As {@link #failInterruptedDocuments}, for the documents of no instance whose lease was renewed at {@code
     * leaseCutoff} or after: one that died, or none (a document written before documents named their instance). A
     * document a live instance took up meanwhile names that instance, and is left to it.
     */
    List<KnowledgeDocument> failDocumentsOfLapsedInstances(String reason, long leaseCutoff) {
        return failIndexing(reason, " AND (instance_id IS NULL OR instance_id NOT IN (SELECT id FROM instance_lease "
                + "WHERE renewed_at >= :cutoff))", Map.of("cutoff", leaseCutoff), Set.of());
    }

    /** Ends each document {@code which} narrows that is still indexing, one by one: each is ended once. */
    private List<KnowledgeDocument> failIndexing(String reason, String which, Map<String, Object> binds,
            Set<String> spared) {
        return jdbi.withHandle(h -> {
            List<KnowledgeDocument> left = h.createQuery("SELECT * FROM knowledge_document WHERE status = 'indexing'"
                    + which).bindMap(binds).map((rs, ctx) -> document(rs)).list();
            List<KnowledgeDocument> ended = new ArrayList<>();
            for (KnowledgeDocument document : left) {
                if (spared.contains(document.id())) {
                    continue;
                }
                int changed = h.createUpdate("UPDATE knowledge_document SET status = 'error', error = :error "
                        + "WHERE id = :id AND status = 'indexing'" + which).bind("error", reason)
                        .bind("id", document.id()).bindMap(binds).execute();
                if (changed == 1) {
                    ended.add(document.failed(reason));
                }
            }
            return ended;
        });
    }

    void deleteDocument(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_document WHERE id = :id").bind("id", id)
                .execute());
    }

    private static KnowledgeDocument document(ResultSet rs) throws SQLException {
        return new KnowledgeDocument(rs.getString("id"), rs.getString("base_id"), rs.getString("name"),
                rs.getString("source"), rs.getInt("word_count"), rs.getString("content_hash"),
                DocumentStatus.valueOf(rs.getString("status").toUpperCase(java.util.Locale.ROOT)),
                Optional.ofNullable(rs.getString("error")), rs.getBoolean("enabled"),
                read(rs.getString("metadata"), new TypeReference<Map<String, String>>() { }),
                instant(rs, "created_at"), Optional.ofNullable(rs.getObject("archived_at", OffsetDateTime.class))
                        .map(OffsetDateTime::toInstant));
    }
}
