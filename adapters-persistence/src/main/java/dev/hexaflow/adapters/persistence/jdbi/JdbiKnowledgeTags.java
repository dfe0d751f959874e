package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.domain.knowledge.KnowledgeTag;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** Knowledge tags in {@code knowledge_tag}, and the bases each is bound to in {@code knowledge_tag_binding}. */
final class JdbiKnowledgeTags {

    private final Jdbi jdbi;
    private final SqlDialect dialect;

    JdbiKnowledgeTags(Jdbi jdbi, SqlDialect dialect) {
        this.jdbi = jdbi;
        this.dialect = dialect;
    }

    void saveTag(KnowledgeTag tag) {
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_tag", "id", "id, name, created_at",
                ":id, :name, :created")).bind("id", tag.id()).bind("name", tag.name())
                .bind("created", OffsetDateTime.ofInstant(tag.created(), ZoneOffset.UTC)).execute());
    }

    Optional<KnowledgeTag> findTag(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_tag WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> tag(rs)).findOne());
    }

    List<KnowledgeTag> tags() {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_tag ORDER BY created_at, id")
                .map((rs, ctx) -> tag(rs)).list());
    }

    void deleteTag(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_tag WHERE id = :id").bind("id", id).execute());
    }

    void bindTag(String tagId, String baseId) {
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_tag_binding", "tag_id, base_id",
                "tag_id, base_id", ":tag, :base")).bind("tag", tagId).bind("base", baseId).execute());
    }

    void unbindTag(String tagId, String baseId) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_tag_binding WHERE tag_id = :tag AND base_id = :base")
                .bind("tag", tagId).bind("base", baseId).execute());
    }

    List<KnowledgeTag> tagsOf(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT t.* FROM knowledge_tag t JOIN knowledge_tag_binding b "
                + "ON b.tag_id = t.id WHERE b.base_id = :base ORDER BY t.created_at, t.id").bind("base", baseId)
                .map((rs, ctx) -> tag(rs)).list());
    }

    int tagBindings(String tagId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT COUNT(*) FROM knowledge_tag_binding WHERE tag_id = :tag")
                .bind("tag", tagId).mapTo(Integer.class).one());
    }

    private static KnowledgeTag tag(ResultSet rs) throws SQLException {
        return new KnowledgeTag(rs.getString("id"), rs.getString("name"),
                rs.getObject("created_at", OffsetDateTime.class).toInstant());
    }
}
