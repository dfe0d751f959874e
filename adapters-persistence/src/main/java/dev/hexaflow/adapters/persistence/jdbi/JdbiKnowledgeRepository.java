package dev.hexaflow.adapters.persistence.jdbi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.MetadataType;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Knowledge bases, documents and chunks in {@code knowledge_base}, {@code knowledge_document}, {@code knowledge_chunk},
 * the ids bound to bases in {@code knowledge_alias}, tags in {@code knowledge_tag} and
 * {@code knowledge_tag_binding}, metadata fields in {@code knowledge_metadata_field}, and child chunks in {@code knowledge_child_chunk}.
 */
public final class JdbiKnowledgeRepository implements KnowledgeRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SEARCHABLE = "FROM knowledge_chunk c JOIN knowledge_document d ON d.id = c.document_id"
            + " WHERE c.enabled AND d.enabled AND d.status = 'completed'";
    private static final String CHILDLESS = " AND NOT EXISTS (SELECT 1 FROM knowledge_child_chunk k WHERE "
            + "k.chunk_id = c.id)";
    private static final String SEARCHABLE_CHILDREN = "FROM knowledge_child_chunk k JOIN knowledge_chunk c ON "
            + "c.id = k.chunk_id JOIN knowledge_document d ON d.id = c.document_id"
            + " WHERE c.enabled AND d.enabled AND d.status = 'completed'";
    private final Jdbi jdbi;
    private final SqlDialect dialect;
    private final String insertChunk;
    private final String insertChild;
    private final String instanceId;

    public JdbiKnowledgeRepository(Jdbi jdbi) {
        this(jdbi, null);
    }

    /**
     * @param instanceId the instance that writes here, which each document it saves names, so that the documents an
     *                   instance that died left {@code indexing} can be ended by another
     *                   ({@link #failDocumentsOfLapsedInstances}); null where one instance is alone
     */
    public JdbiKnowledgeRepository(Jdbi jdbi, String instanceId) {
        this.jdbi = jdbi;
        this.instanceId = instanceId;
        this.dialect = SqlDialect.of(jdbi);
        this.insertChunk = dialect.upsert("knowledge_chunk", "id", "id, document_id, base_id, position, content, "
                + "word_count, tokens, keywords, index_node_hash, hit_count, enabled, vector", ":id, :doc, :base, "
                + ":position, :content, :words, :tokens, :keywords, :hash, :hits, :enabled, :vector");
        this.insertChild = dialect.upsert("knowledge_child_chunk", "id", "id, chunk_id, document_id, base_id, "
                + "position, content, vector", ":id, :chunk, :doc, :base, :position, :content, :vector");
    }

    @Override
    public void saveBase(KnowledgeBase base) {
        RetrievalSettings r = base.retrieval();
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_base", "id", "id, name, description, "
                + "embedding_model, search_method, top_k, score_threshold, vector_weight, keyword_weight, created_at",
                ":id, :name, :description, :model, :method, :top_k, :threshold, :vw, :kw, :created"))
                .bind("id", base.id()).bind("name", base.name()).bind("description", base.description())
                .bind("model", base.embeddingModel().orElse(null)).bind("method", r.method().wireName())
                .bind("top_k", r.topK()).bind("threshold", r.scoreThreshold().orElse(null))
                .bind("vw", r.vectorWeight()).bind("kw", r.keywordWeight())
                .bind("created", OffsetDateTime.ofInstant(base.created(), ZoneOffset.UTC)).execute());
    }

    @Override
    public Optional<KnowledgeBase> findBase(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_base WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> base(rs)).findOne());
    }

    @Override
    public List<KnowledgeBase> bases() {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_base ORDER BY created_at DESC, id DESC")
                .map((rs, ctx) -> base(rs)).list());
    }

    @Override
    public void deleteBase(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_base WHERE id = :id").bind("id", id).execute());
    }

    @Override
    public void saveTag(KnowledgeTag tag) {
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_tag", "id", "id, name, created_at",
                ":id, :name, :created")).bind("id", tag.id()).bind("name", tag.name())
                .bind("created", OffsetDateTime.ofInstant(tag.created(), ZoneOffset.UTC)).execute());
    }

    @Override
    public Optional<KnowledgeTag> findTag(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_tag WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> tag(rs)).findOne());
    }

    @Override
    public List<KnowledgeTag> tags() {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_tag ORDER BY created_at, id")
                .map((rs, ctx) -> tag(rs)).list());
    }

    @Override
    public void deleteTag(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_tag WHERE id = :id").bind("id", id).execute());
    }

    @Override
    public void bindTag(String tagId, String baseId) {
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_tag_binding", "tag_id, base_id",
                "tag_id, base_id", ":tag, :base")).bind("tag", tagId).bind("base", baseId).execute());
    }

    @Override
    public void unbindTag(String tagId, String baseId) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_tag_binding WHERE tag_id = :tag AND base_id = :base")
                .bind("tag", tagId).bind("base", baseId).execute());
    }

    @Override
    public List<KnowledgeTag> tagsOf(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT t.* FROM knowledge_tag t JOIN knowledge_tag_binding b "
                + "ON b.tag_id = t.id WHERE b.base_id = :base ORDER BY t.created_at, t.id").bind("base", baseId)
                .map((rs, ctx) -> tag(rs)).list());
    }

    @Override
    public int tagBindings(String tagId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT COUNT(*) FROM knowledge_tag_binding WHERE tag_id = :tag")
                .bind("tag", tagId).mapTo(Integer.class).one());
    }

    private static KnowledgeTag tag(ResultSet rs) throws SQLException {
        return new KnowledgeTag(rs.getString("id"), rs.getString("name"),
                rs.getObject("created_at", OffsetDateTime.class).toInstant());
    }

    @Override
    public void bindAlias(String datasetId, String baseId) {
        jdbi.useHandle(h -> h.createUpdate(dialect.upsert("knowledge_alias", "dataset_id", "dataset_id, base_id",
                ":dataset, :base")).bind("dataset", datasetId).bind("base", baseId).execute());
    }

    @Override
    public boolean unbindAlias(String datasetId) {
        return jdbi.withHandle(h -> h.createUpdate("DELETE FROM knowledge_alias WHERE dataset_id = :dataset")
                .bind("dataset", datasetId).execute()) > 0;
    }

    @Override
    public Optional<String> aliasTarget(String datasetId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT base_id FROM knowledge_alias WHERE dataset_id = :dataset")
                .bind("dataset", datasetId).mapTo(String.class).findOne());
    }

    @Override
    public void saveDocument(KnowledgeDocument d) {
        jdbi.useHandle(h -> saveDocument(h, d));
    }

    @Override
    public void saveDocuments(List<KnowledgeDocument> documents) {
        jdbi.useTransaction(h -> documents.forEach(d -> saveDocument(h, d)));
    }

    @Override
    public void saveMetadataField(MetadataField field, List<KnowledgeDocument> documents) {
        jdbi.useTransaction(h -> {
            h.createUpdate(dialect.upsert("knowledge_metadata_field", "id", "id, base_id, name, type, created_at",
                    ":id, :base, :name, :type, :created")).bind("id", field.id())
                    .bind("base", field.baseId()).bind("name", field.name()).bind("type", field.type().wireName())
                    .bind("created", OffsetDateTime.ofInstant(field.created(), ZoneOffset.UTC)).execute();
            documents.forEach(d -> saveDocument(h, d));
        });
    }

    @Override
    public Optional<MetadataField> findMetadataField(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_metadata_field WHERE id = :id")
                .bind("id", id).map((rs, ctx) -> metadataField(rs)).findOne());
    }

    @Override
    public List<MetadataField> metadataFields(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_metadata_field WHERE base_id = :base "
                + "ORDER BY created_at, id").bind("base", baseId).map((rs, ctx) -> metadataField(rs)).list());
    }

    @Override
    public void deleteMetadataField(String id, List<KnowledgeDocument> documents) {
        jdbi.useTransaction(h -> {
            h.createUpdate("DELETE FROM knowledge_metadata_field WHERE id = :id").bind("id", id).execute();
            documents.forEach(d -> saveDocument(h, d));
        });
    }

    @Override
    public boolean builtInMetadataEnabled(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT built_in_metadata FROM knowledge_base WHERE id = :id")
                .bind("id", baseId).mapTo(Boolean.class).findOne().orElse(false));
    }

    @Override
    public void setBuiltInMetadataEnabled(String baseId, boolean enabled) {
        jdbi.useHandle(h -> h.createUpdate("UPDATE knowledge_base SET built_in_metadata = :on WHERE id = :id")
                .bind("on", enabled).bind("id", baseId).execute());
    }

    private void saveDocument(Handle h, KnowledgeDocument d) {
        h.createUpdate(dialect.upsert("knowledge_document", "id", "id, base_id, name, source, word_count, "
                + "content_hash, status, error, enabled, metadata, created_at, instance_id", ":id, :base, :name, "
                + ":source, :words, :hash, :status, :error, :enabled, :metadata, :created, :instance"))
                .bind("id", d.id()).bind("base", d.baseId()).bind("name", d.name()).bind("source", d.source())
                .bind("words", d.wordCount()).bind("hash", d.contentHash()).bind("status", d.status().wireName())
                .bind("error", d.error().orElse(null)).bind("enabled", d.enabled())
                .bind("metadata", json(d.metadata()))
                .bind("created", OffsetDateTime.ofInstant(d.created(), ZoneOffset.UTC))
                .bind("instance", instanceId).execute();
    }

    @Override
    public Optional<KnowledgeDocument> findDocument(String id) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_document WHERE id = :id").bind("id", id)
                .map((rs, ctx) -> document(rs)).findOne());
    }

    @Override
    public List<KnowledgeDocument> documents(String baseId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_document WHERE base_id = :base "
                + "ORDER BY created_at, id").bind("base", baseId).map((rs, ctx) -> document(rs)).list());
    }

    @Override
    public Optional<KnowledgeDocument> findDocumentByHash(String baseId, String contentHash) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_document WHERE base_id = :base AND "
                + "content_hash = :hash ORDER BY created_at LIMIT 1").bind("base", baseId).bind("hash", contentHash)
                .map((rs, ctx) -> document(rs)).findOne());
    }

    @Override
    public List<KnowledgeDocument> failInterruptedDocuments(String reason, Set<String> spared) {
        return failIndexing(reason, "", Map.of(), spared);
    }

    /**
     * As {@link #failInterruptedDocuments}, for the documents of no instance whose lease was renewed at {@code
     * leaseCutoff} or after: one that died, or none (a document written before documents named their instance). A
     * document a live instance took up meanwhile names that instance, and is left to it.
     */
    @Override
    public List<KnowledgeDocument> failDocumentsOfLapsedInstances(String reason, long leaseCutoff) {
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

    @Override
    public void deleteDocument(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_document WHERE id = :id").bind("id", id)
                .execute());
    }

    @Override
    public void replaceChunks(String documentId, List<StoredChunk> chunks) {
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
                .bind("vector", stored.vector().map(JdbiKnowledgeRepository::bytes).orElse(null));
    }

    @Override
    public void saveChunk(StoredChunk chunk) {
        jdbi.useHandle(h -> {
            PreparedBatch batch = h.prepareBatch(insertChunk);
            bind(batch, chunk).add();
            batch.execute();
        });
    }

    @Override
    public List<StoredChunk> chunks(String documentId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_chunk WHERE document_id = :doc "
                + "ORDER BY position").bind("doc", documentId).map((rs, ctx) -> chunk(rs)).list());
    }

    @Override
    public List<StoredChunk> findChunks(Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbi.withHandle(h -> h.createQuery("SELECT * FROM knowledge_chunk WHERE id IN (<ids>)")
                .bindList("ids", List.copyOf(ids)).map((rs, ctx) -> chunk(rs)).list());
    }

    @Override
    public void countHits(Collection<String> chunkIds) {
        if (chunkIds.isEmpty()) {
            return;
        }
        jdbi.useHandle(h -> h.createUpdate("UPDATE knowledge_chunk SET hit_count = hit_count + 1 WHERE id IN (<ids>)")
                .bindList("ids", List.copyOf(chunkIds)).execute());
    }

    @Override
    public long countSearchableChunks() {
        return jdbi.withHandle(h -> h.createQuery("SELECT COUNT(*) " + SEARCHABLE + CHILDLESS).mapTo(Long.class).one()
                + h.createQuery("SELECT COUNT(*) " + SEARCHABLE_CHILDREN).mapTo(Long.class).one());
    }

    @Override
    public void forEachSearchableChunk(Consumer<StoredChunk> sink) {
        jdbi.useHandle(h -> {
            h.createQuery("SELECT c.* " + SEARCHABLE + CHILDLESS).setFetchSize(500).map((rs, ctx) -> chunk(rs))
                    .forEach(sink);
            h.createQuery("SELECT k.* " + SEARCHABLE_CHILDREN).setFetchSize(500).map((rs, ctx) -> child(rs))
                    .forEach(child -> sink.accept(child.searchable()));
        });
    }

    @Override
    public List<StoredChunk> searchableChunks(String documentId) {
        return jdbi.withHandle(h -> {
            List<StoredChunk> found = new ArrayList<>(h.createQuery("SELECT c.* " + SEARCHABLE
                    + " AND c.document_id = :doc" + CHILDLESS).bind("doc", documentId).map((rs, ctx) -> chunk(rs))
                    .list());
            h.createQuery("SELECT k.* " + SEARCHABLE_CHILDREN + " AND k.document_id = :doc").bind("doc", documentId)
                    .map((rs, ctx) -> child(rs)).forEach(child -> found.add(child.searchable()));
            return found;
        });
    }

    @Override
    public void replaceChildChunks(String documentId, List<StoredChildChunk> children) {
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

    @Override
    public void saveChildChunk(StoredChildChunk child) {
        jdbi.useHandle(h -> {
            PreparedBatch batch = h.prepareBatch(insertChild);
            bind(batch, child).add();
            batch.execute();
        });
    }

    @Override
    public void deleteChildChunk(String id) {
        jdbi.useHandle(h -> h.createUpdate("DELETE FROM knowledge_child_chunk WHERE id = :id").bind("id", id)
                .execute());
    }

    @Override
    public List<StoredChildChunk> childChunks(String documentId) {
        return jdbi.withHandle(h -> h.createQuery("SELECT k.* FROM knowledge_child_chunk k JOIN knowledge_chunk c ON "
                + "c.id = k.chunk_id WHERE k.document_id = :doc ORDER BY c.position, k.position")
                .bind("doc", documentId).map((rs, ctx) -> child(rs)).list());
    }

    @Override
    public List<StoredChildChunk> findChildChunks(Collection<String> ids) {
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
                .bind("vector", stored.vector().map(JdbiKnowledgeRepository::bytes).orElse(null));
    }

    private static StoredChildChunk child(ResultSet rs) throws SQLException {
        byte[] vector = rs.getBytes("vector");
        return StoredChildChunk.of(new ChildChunk(rs.getString("id"), rs.getString("chunk_id"),
                rs.getString("document_id"), rs.getString("base_id"), rs.getInt("position"), rs.getString("content")),
                vector == null ? null : floats(vector));
    }

    private static KnowledgeBase base(ResultSet rs) throws SQLException {
        double threshold = rs.getDouble("score_threshold");
        Optional<Double> scoreThreshold = rs.wasNull() ? Optional.empty() : Optional.of(threshold);
        RetrievalSettings retrieval = new RetrievalSettings(SearchMethod.fromWireName(rs.getString("search_method"))
                .orElse(SearchMethod.KEYWORD_SEARCH), rs.getInt("top_k"), scoreThreshold,
                rs.getDouble("vector_weight"), rs.getDouble("keyword_weight"));
        return new KnowledgeBase(rs.getString("id"), rs.getString("name"), rs.getString("description"),
                Optional.ofNullable(rs.getString("embedding_model")), retrieval, instant(rs, "created_at"));
    }

    private static KnowledgeDocument document(ResultSet rs) throws SQLException {
        return new KnowledgeDocument(rs.getString("id"), rs.getString("base_id"), rs.getString("name"),
                rs.getString("source"), rs.getInt("word_count"), rs.getString("content_hash"),
                DocumentStatus.valueOf(rs.getString("status").toUpperCase(java.util.Locale.ROOT)),
                Optional.ofNullable(rs.getString("error")), rs.getBoolean("enabled"),
                read(rs.getString("metadata"), new TypeReference<Map<String, String>>() { }),
                instant(rs, "created_at"));
    }

    private static MetadataField metadataField(ResultSet rs) throws SQLException {
        return new MetadataField(rs.getString("id"), rs.getString("base_id"), rs.getString("name"),
                MetadataType.fromWireName(rs.getString("type")).orElse(MetadataType.STRING), instant(rs, "created_at"));
    }

    private static StoredChunk chunk(ResultSet rs) throws SQLException {
        byte[] vector = rs.getBytes("vector");
        return StoredChunk.of(new Chunk(rs.getString("id"), rs.getString("document_id"), rs.getString("base_id"),
                rs.getInt("position"), rs.getString("content"), rs.getInt("word_count"), rs.getInt("tokens"),
                read(rs.getString("keywords"), new TypeReference<List<String>>() { }), rs.getString("index_node_hash"),
                rs.getLong("hit_count"), rs.getBoolean("enabled")), vector == null ? null : floats(vector));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    static byte[] bytes(float[] vector) {
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(vector);
        return buffer.array();
    }

    static float[] floats(byte[] bytes) {
        float[] vector = new float[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        return vector;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T read(String text, TypeReference<T> type) {
        try {
            return JSON.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a knowledge column holds text that is not JSON", e);
        }
    }
}
