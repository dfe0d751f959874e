package dev.hexaflow.adapters.persistence.jdbi;

import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.instant;

import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.MetadataType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * A base's metadata fields in {@code knowledge_metadata_field}, and whether its built-in fields are on. A field
 * saved or deleted changes its documents' metadata in the same transaction.
 */
final class JdbiKnowledgeMetadata {

    private final Jdbi jdbi;
    private final SqlDialect dialect;
    private final JdbiKnowledgeDocuments knowledgeDocuments;

    JdbiKnowledgeMetadata(Jdbi jdbi, SqlDialect dialect, JdbiKnowledgeDocuments knowledgeDocuments) {
        this.jdbi = jdbi;
        this.dialect = dialect;
        this.knowledgeDocuments = knowledgeDocuments;
    }

    void saveMetadataField(MetadataField field, List<KnowledgeDocument> documents) {
        jdbi.useTransaction(h -> {
            h.createUpdate(dialect.upsert("knowledge_metadata_field", "id", "id, base_id, name, type, created_at",
                    ":id, :base, :name, :type, :created")).bind("id", field.id())
                    .bind("base", field.baseId()).bind("name", field.name()).bind("type", field.type().wireName())
                    .bind("created", OffsetDateTime.ofInstant(field.created(), ZoneOffset.UTC)).execute();
            documents.forEach(d -> knowledgeDocuments.saveDocument(h, d));
        });
    }

    Optional<MetadataField> findMetadataField(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_metadata_field WHERE id = :id")
                .bind("id", id).map((rs, ctx) -> metadataField(rs)).findOne());
    }

    List<MetadataField> metadataFields(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_metadata_field WHERE base_id = :base "
                + "ORDER BY created_at, id").bind("base", baseId).map((rs, ctx) -> metadataField(rs)).list());
    }

    void deleteMetadataField(String id, List<KnowledgeDocument> documents) {
        jdbi.useTransaction(h -> {
            h.createUpdate("DELETE FROM knowledge_metadata_field WHERE id = :id").bind("id", id).execute();
            documents.forEach(d -> knowledgeDocuments.saveDocument(h, d));
        });
    }

    boolean builtInMetadataEnabled(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT built_in_metadata FROM knowledge_base WHERE id = :id")
                .bind("id", baseId).mapTo(Boolean.class).findOne().orElse(false));
    }

    void setBuiltInMetadataEnabled(String baseId, boolean enabled) {
        jdbi.useHandle(h -> h.createUpdate("UPDATE knowledge_base SET built_in_metadata = :on WHERE id = :id")
                .bind("on", enabled).bind("id", baseId).execute());
    }

    private static MetadataField metadataField(ResultSet rs) throws SQLException {
        return new MetadataField(rs.getString("id"), rs.getString("base_id"), rs.getString("name"),
                MetadataType.fromWireName(rs.getString("type")).orElse(MetadataType.STRING), instant(rs, "created_at"));
    }
}
