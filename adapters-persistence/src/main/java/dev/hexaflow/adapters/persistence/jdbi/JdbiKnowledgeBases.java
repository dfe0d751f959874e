package dev.hexaflow.adapters.persistence.jdbi;

import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.instant;

import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** Knowledge bases in {@code knowledge_base}, and the ids bound to them in {@code knowledge_alias}. */
final class JdbiKnowledgeBases {

    private final Jdbi jdbi;
    private final SqlDialect dialect;

    JdbiKnowledgeBases(Jdbi jdbi, SqlDialect dialect) {
        this.jdbi = jdbi;
        this.dialect = dialect;
    }

    void saveBase(KnowledgeBase base) {
        RetrievalSettings r = base.retrieval();
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_base", "id", "id, name, description, "
                + "embedding_model, search_method, top_k, score_threshold, vector_weight, keyword_weight, created_at, "
                + "keyword_analyzer",
                ":id, :name, :description, :model, :method, :top_k, :threshold, :vw, :kw, :created, :analyzer"))
                .bind("id", base.id()).bind("name", base.name()).bind("description", base.description())
                .bind("model", base.embeddingModel().orElse(null)).bind("method", r.method().wireName())
                .bind("top_k", r.topK()).bind("threshold", r.scoreThreshold().orElse(null))
                .bind("vw", r.vectorWeight()).bind("kw", r.keywordWeight())
                .bind("created", OffsetDateTime.ofInstant(base.created(), ZoneOffset.UTC))
                .bind("analyzer", base.analyzer().wireName()).execute());
    }

    Optional<KnowledgeBase> findBase(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_base WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> base(rs)).findOne());
    }

    List<KnowledgeBase> bases() {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_base ORDER BY created_at DESC, id DESC")
                .map((rs, ctx) -> base(rs)).list());
    }

    void deleteBase(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_base WHERE id = :id").bind("id", id).execute());
    }

    void bindAlias(String datasetId, String baseId) {
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_alias", "dataset_id", "dataset_id, base_id",
                ":dataset, :base")).bind("dataset", datasetId).bind("base", baseId).execute());
    }

    boolean unbindAlias(String datasetId) {
        return jdbi.withHandle(h -> h.createUpdate("DELETE FROM knowledge_alias WHERE dataset_id = :dataset")
                .bind("dataset", datasetId).execute()) > 0;
    }

    Optional<String> aliasTarget(String datasetId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT base_id FROM knowledge_alias WHERE dataset_id = :dataset")
                .bind("dataset", datasetId).mapTo(String.class).findOne());
    }

    private static KnowledgeBase base(ResultSet rs) throws SQLException {
        double threshold = rs.getDouble("score_threshold");
        Optional<Double> scoreThreshold = rs.wasNull() ? Optional.empty() : Optional.of(threshold);
        RetrievalSettings retrieval = new RetrievalSettings(SearchMethod.fromWireName(rs.getString("search_method"))
                .orElse(SearchMethod.KEYWORD_SEARCH), rs.getInt("top_k"), scoreThreshold,
                rs.getDouble("vector_weight"), rs.getDouble("keyword_weight"));
        return new KnowledgeBase(rs.getString("id"), rs.getString("name"), rs.getString("description"),
                Optional.ofNullable(rs.getString("embedding_model")), retrieval, instant(rs, "created_at"),
                KeywordAnalyzer.fromWireName(rs.getString("keyword_analyzer")).orElse(KeywordAnalyzer.AUTO));
    }
}
