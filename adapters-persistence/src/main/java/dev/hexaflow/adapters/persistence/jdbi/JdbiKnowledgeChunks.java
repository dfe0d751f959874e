package dev.hexaflow.adapters.persistence.jdbi;

import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.floats;
import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.json;
import static dev.hexaflow.adapters.persistence.jdbi.KnowledgeColumns.read;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Chunks (a document's segments) in {@code knowledge_chunk} and their child chunks in
 * {@code knowledge_child_chunk}, each with its vector; and the searchable ones, those of enabled chunks of enabled,
 * unarchived documents that completed indexing: a chunk with children is searched through its children.
 */
final class JdbiKnowledgeChunks {

    private static final String SEARCHABLE = "FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id"
            + " WHERE c.enabled AND d.enabled AND d.archived_at IS NULL AND d.status = 'completed'";
    private static final String CHILDLESS = " AND NOT EXISTS (SELECT 1 FROM knowledge_child_chunk k WHERE "
            + "k.chunk_id = c.id)";
    private static final String SEARCHABLE_CHILDREN = "FROM knowledge_child_chunk k JOIN knowledge_chunk c ON "
            + "c.id = k.chunk_id JOIN knowledge_document d ON d.id = c.document_id"
            + " WHERE c.enabled AND d.enabled AND d.archived_at IS NULL AND d.status = 'completed'";

    private final Jdbi jdbi;
    private final String insertChunk;
    private final String insertChild;

    JdbiKnowledgeChunks(Jdbi jdbi, SqlDialect dialect) {
        this.jdbi = jdbi;
        this.insertChunk = dialect.upsert("knowledge_chunk", "id", "id, document_id, base_id, position, content, "
                + "word_count, tokens, keywords, index_node_hash, hit_count, enabled, vector", ":id, :doc, :base, "
                + ":position, :content, :words, :tokens, :keywords, :hash, :hits, :enabled, :vector");
        this.insertChild = dialect.upsert("knowledge_child_chunk", "id", "id, chunk_id, document_id, base_id, "
                + "position, content, vector", ":id, :chunk, :doc, :base, :position, :content, :vector");
    }

    void replaceChunks(String documentId, List<StoredChunk> chunks) {
        jdbi.useTransaction(h -> {
            h.createUpdate("DELETE FROM knowledge_chunk WHERE document_id = :doc").bind("doc", documentId).execute();
            PreparedBatch batch = h.prepareBatch(insertChunk);
            for (StoredChunk chunk : chunks) {
                bind(batch, chunk).add();
            }
            if (!chunks.isEmpty()) {
                batch.execute();
            }
        });
    }

    private static PreparedBatch bind(PreparedBatch batch, StoredChunk stored) {
        Chunk c = stored.chunk();
        return batch.bind("id", c.id()).bind("doc", c.documentId()).bind("base", c.baseId())
                .bind("position", c.position()).bind("content", c.content()).bind("words", c.wordCount())
                .bind("tokens", c.tokens()).bind("keywords", json(c.keywords())).bind("hash", c.indexNodeHash())
                .bind("hits", c.hitCount()).bind("enabled", c.enabled())
                .bind("vector", stored.vector().map(KnowledgeColumns::bytes).orElse(null));
    }

    void saveChunk(StoredChunk chunk) {
        jdbi.useHandle(h -> {
            PreparedBatch batch = h.prepareBatch(insertChunk);
            bind(batch, chunk).add();
            batch.execute();
        });
    }

    List<StoredChunk> chunks(String documentId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_chunk WHERE document_id = :doc "
                + "ORDER BY position").bind("doc", documentId).map((rs, ctx) -> chunk(rs)).list());
    }

    List<StoredChunk> findChunks(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_chunk WHERE id IN (<ids>)")
                .bindList("ids", List.copyOf(ids)).map((rs, ctx) -> chunk(rs)).list());
    }

    void countHits(Collection<String> chunkIds) {
        if (chunkIds.isEmpty()) {
            return;
        }
        jdbi.useHandle(h -> h.createUpdate("UPDATE knowledge_chunk SET hit_count = hit_count + 1 WHERE id IN (<ids>)")
                .bindList("ids", List.copyOf(chunkIds)).execute());
    }

    long countSearchableChunks() {
        return jdbi.withHandle(h -> h.createQuery("SELECT COUNT(*) " + SEARCHABLE + CHILDLESS).mapTo(Long.class).one()
                + h.createQuery("SELECT COUNT(*) " + SEARCHABLE_CHILDREN).mapTo(Long.class).one());
    }

    void forEachSearchableChunk(Consumer<StoredChunk> sink) {
        jdbi.useHandle(h -> {
            h.createQuery("SELECT c.* " + SEARCHABLE + CHILDLESS).setFetchSize(500).map((rs, ctx) -> chunk(rs))
                    .forEach(sink);
            h.createQuery("SELECT k.* " + SEARCHABLE_CHILDREN).setFetchSize(500).map((rs, ctx) -> child(rs))
                    .forEach(child -> sink.accept(child.searchable()));
        });
    }

    List<StoredChunk> searchableChunks(String documentId) {
        return jdbi.withHandle(h -> {
            List<StoredChunk> found = new ArrayList<>(h.createQuery("SELECT c.* " + SEARCHABLE
                    + " AND c.document_id = :doc" + CHILDLESS).bind("doc", documentId).map((rs, ctx) -> chunk(rs))
                    .list());
            h.createQuery("SELECT k.* " + SEARCHABLE_CHILDREN + " AND k.document_id = :doc").bind("doc", documentId)
                    .map((rs, ctx) -> child(rs)).forEach(child -> found.add(child.searchable()));
            return found;
        });
    }

    void replaceChildChunks(String documentId, List<StoredChildChunk> children) {
        jdbi.useTransaction(h -> {
            h.createUpdate("DELETE FROM knowledge_child_chunk WHERE document_id = :doc").bind("doc", documentId)
                    .execute();
            PreparedBatch batch = h.prepareBatch(insertChild);
            for (StoredChildChunk child : children) {
                bind(batch, child).add();
            }
            if (!children.isEmpty()) {
                batch.execute();
            }
        });
    }

    void saveChildChunk(StoredChildChunk child) {
        jdbi.useHandle(h -> {
            PreparedBatch batch = h.prepareBatch(insertChild);
            bind(batch, child).add();
            batch.execute();
        });
    }

    void deleteChildChunk(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_child_chunk WHERE id = :id").bind("id", id)
                .execute());
    }

    List<StoredChildChunk> childChunks(String documentId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT k.* FROM knowledge_child_chunk k JOIN knowledge_chunk c ON "
                + "c.id = k.chunk_id WHERE k.document_id = :doc ORDER BY c.position, k.position")
                .bind("doc", documentId).map((rs, ctx) -> child(rs)).list());
    }

    List<StoredChildChunk> findChildChunks(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_child_chunk WHERE id IN (<ids>)")
                .bindList("ids", List.copyOf(ids)).map((rs, ctx) -> child(rs)).list());
    }

    private static PreparedBatch bind(PreparedBatch batch, StoredChildChunk stored) {
        ChildChunk c = stored.child();
        return batch.bind("id", c.id()).bind("chunk", c.segmentId()).bind("doc", c.documentId())
                .bind("base", c.baseId()).bind("position", c.position()).bind("content", c.content())
                .bind("vector", stored.vector().map(KnowledgeColumns::bytes).orElse(null));
    }

    private static StoredChildChunk child(ResultSet rs) throws SQLException {
        byte[] vector = rs.getBytes("vector");
        return StoredChildChunk.of(new ChildChunk(rs.getString("id"), rs.getString("chunk_id"),
                rs.getString("document_id"), rs.getString("base_id"), rs.getInt("position"), rs.getString("content")),
                vector == null ? null : floats(vector));
    }

    private static StoredChunk chunk(ResultSet rs) throws SQLException {
        byte[] vector = rs.getBytes("vector");
        return StoredChunk.of(new Chunk(rs.getString("id"), rs.getString("document_id"), rs.getString("base_id"),
                rs.getInt("position"), rs.getString("content"), rs.getInt("word_count"), rs.getInt("tokens"),
                read(rs.getString("keywords"), new TypeReference<List<String>>() { }), rs.getString("index_node_hash"),
                rs.getLong("hit_count"), rs.getBoolean("enabled")), vector == null ? null : floats(vector));
    }
}
