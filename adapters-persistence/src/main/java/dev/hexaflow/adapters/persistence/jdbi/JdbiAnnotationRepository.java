package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Annotations in {@code app_annotation}, their hits in {@code app_annotation_hit} and the apps' reply settings in
 * {@code app_annotation_setting}. A hit counts itself in the same transaction that records it.
 */
public final class JdbiAnnotationRepository implements AnnotationRepository {

    private final Jdbi jdbi;
    private final String upsertSetting;

    public JdbiAnnotationRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.upsertSetting = SqlDialect.of(jdbi).upsert("app_annotation_setting", "app_id", "app_id, "
                + "score_threshold, embedding_provider_name, embedding_model_name, created_at", ":app_id, :threshold, "
                + ":provider, :model, :created_at");
    }

    @Override
    public void add(Annotation annotation) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO app_annotation (id, app_id, question, answer, "
                + "hit_count, created_at) VALUES (:id, :app_id, :question, :answer, :hit_count, :created_at)")
                .bind("id", annotation.id()).bind("app_id", annotation.appId())
                .bind("question", annotation.question()).bind("answer", annotation.answer())
                .bind("hit_count", annotation.hitCount()).bind("created_at", annotation.createdAt()).execute());
    }

    @Override
    public Optional<Annotation> find(String appId, String annotationId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_annotation WHERE app_id = :app_id "
                + "AND id = :id").bind("app_id", appId).bind("id", annotationId)
                .map((rs, ctx) -> annotation(rs)).findOne());
    }

    @Override
    public void edit(Annotation annotation) {
        jdbi.useHandle(handle -> handle.createUpdate("UPDATE app_annotation SET question = :question, "
                + "answer = :answer WHERE app_id = :app_id AND id = :id").bind("id", annotation.id())
                .bind("app_id", annotation.appId()).bind("question", annotation.question())
                .bind("answer", annotation.answer()).execute());
    }

    @Override
    public boolean remove(String appId, String annotationId) {
        return jdbi.inTransaction(handle -> {
            int removed = handle.createUpdate("DELETE FROM app_annotation WHERE app_id = :app_id AND id = :id")
                    .bind("app_id", appId).bind("id", annotationId).execute();
            if (removed > 0) {
                handle.createUpdate("DELETE FROM app_annotation_hit WHERE annotation_id = :id")
                        .bind("id", annotationId).execute();
            }
            return removed > 0;
        });
    }

    @Override
    public Page page(String appId, String keyword, long offset, int limit) {
        String where = " WHERE app_id = :app_id" + (keyword.isEmpty() ? ""
                : " AND (LOWER(question) LIKE :keyword ESCAPE '!' OR LOWER(answer) LIKE :keyword ESCAPE '!')");
        String pattern = "%" + keyword.toLowerCase(Locale.ROOT).replace("!", "!!").replace("%", "!%")
                .replace("_", "!_") + "%";
        return jdbi.withHandle(handle -> {
            var count = handle.createQuery("SELECT COUNT(*) FROM app_annotation" + where).bind("app_id", appId);
            var select = handle.createQuery("SELECT * FROM app_annotation" + where
                    + " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset").bind("app_id", appId)
                    .bind("limit", limit).bind("offset", offset);
            if (!keyword.isEmpty()) {
                count.bind("keyword", pattern);
                select.bind("keyword", pattern);
            }
            long total = count.mapTo(Long.class).one();
            return new Page(select.map((rs, ctx) -> annotation(rs)).list(), total);
        });
    }

    @Override
    public List<Annotation> all(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_annotation WHERE app_id = :app_id "
                + "ORDER BY created_at DESC, id DESC").bind("app_id", appId).map((rs, ctx) -> annotation(rs)).list());
    }

    @Override
    public void hit(AnnotationHit hit) {
        jdbi.useTransaction(handle -> {
            handle.createUpdate("UPDATE app_annotation SET hit_count = hit_count + 1 WHERE app_id = :app_id AND "
                    + "id = :id").bind("app_id", hit.appId()).bind("id", hit.annotationId()).execute();
            handle.createUpdate("INSERT INTO app_annotation_hit (id, annotation_id, app_id, end_user_id, "
                    + "query_text, source, score, message_id, annotation_question, annotation_answer, created_at) "
                    + "VALUES (:id, :annotation_id, :app_id, :end_user_id, :query, :source, :score, :message_id, "
                    + ":question, :answer, :created_at)").bind("id", hit.id())
                    .bind("annotation_id", hit.annotationId()).bind("app_id", hit.appId())
                    .bind("end_user_id", hit.endUserId()).bind("query", hit.query()).bind("source", hit.source())
                    .bind("score", hit.score()).bind("message_id", hit.messageId())
                    .bind("question", hit.annotationQuestion()).bind("answer", hit.annotationAnswer())
                    .bind("created_at", hit.createdAt()).execute();
        });
    }

    @Override
    public List<AnnotationHit> hits(String appId, String annotationId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_annotation_hit WHERE app_id = "
                + ":app_id AND annotation_id = :id ORDER BY created_at DESC, id DESC").bind("app_id", appId)
                .bind("id", annotationId).map((rs, ctx) -> new AnnotationHit(rs.getString("id"),
                        rs.getString("annotation_id"), rs.getString("app_id"), rs.getString("end_user_id"),
                        rs.getString("query_text"), rs.getString("source"), rs.getDouble("score"),
                        rs.getString("message_id"), rs.getString("annotation_question"),
                        rs.getString("annotation_answer"), rs.getLong("created_at"))).list());
    }

    @Override
    public Optional<AnnotationSetting> setting(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_annotation_setting WHERE app_id = "
                + ":app_id").bind("app_id", appId).map((rs, ctx) -> new AnnotationSetting(rs.getString("app_id"),
                        rs.getDouble("score_threshold"), rs.getString("embedding_provider_name"),
                        rs.getString("embedding_model_name"), rs.getLong("created_at"))).findOne());
    }

    @Override
    public void saveSetting(AnnotationSetting setting) {
        jdbi.useHandle(handle -> handle.createUpdate(upsertSetting).bind("app_id", setting.appId())
                .bind("threshold", setting.scoreThreshold()).bind("provider", setting.embeddingProviderName())
                .bind("model", setting.embeddingModelName()).bind("created_at", setting.createdAt()).execute());
    }

    @Override
    public void removeSetting(String appId) {
        jdbi.useHandle(handle -> handle.createUpdate("DELETE FROM app_annotation_setting WHERE app_id = :app_id")
                .bind("app_id", appId).execute());
    }

    private static Annotation annotation(ResultSet rs) throws SQLException {
        return new Annotation(rs.getString("id"), rs.getString("app_id"), rs.getString("question"),
                rs.getString("answer"), rs.getLong("hit_count"), rs.getLong("created_at"));
    }
}
