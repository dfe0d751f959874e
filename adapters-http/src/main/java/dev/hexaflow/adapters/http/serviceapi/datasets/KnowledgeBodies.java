package dev.hexaflow.adapters.http.serviceapi.datasets;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.BuiltInMetadata;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.util.List;
import java.util.Map;

/**
 * The Knowledge API's bodies in Dify's field names ({@code fields/dataset_fields.py}, {@code document_fields.py},
 * {@code segment_fields.py}, {@code hit_testing_fields.py}), mapped from the knowledge model. What only Dify's
 * console fills in (members, external knowledge, who made what) is empty; every document is
 * {@code text_model} in its segment bodies; child chunks have their own routes, and retrieval records carry the
 * ones that matched.
 */
final class KnowledgeBodies {

    static final String DOC_FORM = "text_model";
    static final String HIERARCHICAL = "hierarchical_model";

    private KnowledgeBodies() {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record DatasetBody(String id, String name, String description, String provider, String permission,
            String dataSourceType, String indexingTechnique, int appCount, int documentCount, long wordCount,
            String createdBy, long createdAt, String updatedBy, long updatedAt, String embeddingModel,
            String embeddingModelProvider, boolean embeddingAvailable, RetrievalModelBody retrievalModelDict,
            List<TagBody> tags, String docForm, Map<String, Object> externalKnowledgeInfo,
            Map<String, Object> externalRetrievalModel, List<Object> partialMemberList, String keywordAnalyzer) {

        static DatasetBody of(KnowledgeBase base, List<KnowledgeDocument> documents, List<KnowledgeTag> tags) {
            long created = base.created().getEpochSecond();
            return new DatasetBody(base.id(), base.name(), base.description(), "vendor", "only_me",
                    documents.isEmpty() ? null : "upload_file", base.indexingTechnique().wireName(), 0,
                    documents.size(), documents.stream().mapToLong(KnowledgeDocument::wordCount).sum(), "", created,
                    "", created, base.embeddingModel().orElse(null),
                    base.embeddingModel().isPresent() ? "openai_api_compatible" : null, true,
                    RetrievalModelBody.of(base), tags.stream().map(TagBody::of).toList(), DOC_FORM, Map.of(),
                    Map.of(), List.of(), base.analyzer().wireName());
        }
    }

    /** Dify's tag_fields, as a dataset lists its tags. */
    record TagBody(String id, String name, String type) {
        static TagBody of(KnowledgeTag tag) {
            return new TagBody(tag.id(), tag.name(), "knowledge");
        }
    }

    /** Dify's dataset tag fields: a tag with how many datasets carry it (a string, as Dify answers it). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record CountedTagBody(String id, String name, String type, String bindingCount) {
        static CountedTagBody of(ManageKnowledgeTagsUseCase.CountedTag counted) {
            return new CountedTagBody(counted.tag().id(), counted.tag().name(), "knowledge",
                    String.valueOf(counted.bindings()));
        }
    }

    /** A dataset's tags: {@code {"data": [{id, name}], "total"}}. */
    record DatasetTags(List<NamedTag> data, int total) {
    }

    record NamedTag(String id, String name) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record RetrievalModelBody(String searchMethod, boolean rerankingEnable, String rerankingMode,
            RerankingModelBody rerankingModel, WeightsBody weights, int topK, boolean scoreThresholdEnabled,
            Double scoreThreshold) {

        static RetrievalModelBody of(KnowledgeBase base) {
            RetrievalSettings r = base.retrieval();
            return new RetrievalModelBody(r.method().wireName(), false,
                    r.method() == SearchMethod.HYBRID_SEARCH ? "weighted_score" : null, new RerankingModelBody("", ""),
                    new WeightsBody(new VectorSettingBody(r.vectorWeight(), "", base.embeddingModel().orElse("")),
                            new KeywordSettingBody(r.keywordWeight())),
                    r.topK(), r.scoreThreshold().isPresent(), r.scoreThreshold().orElse(null));
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record RerankingModelBody(String rerankingProviderName, String rerankingModelName) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record WeightsBody(VectorSettingBody vectorSetting, KeywordSettingBody keywordSetting) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record VectorSettingBody(double vectorWeight, String embeddingProviderName, String embeddingModelName) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record KeywordSettingBody(double keywordWeight) {
    }

    /** Dify's document_fields; {@code position} is the document's place in its dataset, oldest first. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record DocumentBody(String id, int position, String dataSourceType, Map<String, Object> dataSourceInfo,
            String datasetProcessRuleId, String name, String createdFrom, String createdBy, long createdAt,
            long tokens, String indexingStatus, String error, boolean enabled, Long disabledAt, String disabledBy,
            boolean archived, String displayStatus, long wordCount, long hitCount, String docForm,
            List<DocMetadataBody> docMetadata) {

        static DocumentBody of(KnowledgeDocument d, int position, List<Chunk> chunks,
                List<ManageMetadataUseCase.MetadataValue> values, String docForm) {
            return new DocumentBody(d.id(), position, "upload_file", Map.of(), null, d.name(), "api", "",
                    d.created().getEpochSecond(), chunks.stream().mapToLong(Chunk::tokens).sum(),
                    d.status().wireName(), d.error().orElse(null), d.enabled(), null, null, d.archived(), shownStatus(d),
                    d.wordCount(), chunks.stream().mapToLong(Chunk::hitCount).sum(), docForm,
                    values.stream().map(v -> new DocMetadataBody(v.fieldId(), v.name(), v.type().wireName(),
                            v.value())).toList());
        }
    }

    /** Dify's display status: what a person sees of the indexing status, and whether the document is on. */
    static String shownStatus(KnowledgeDocument d) {
        return switch (d.status()) {
            case INDEXING -> "indexing";
            case ERROR -> "error";
            case COMPLETED -> d.archived() ? "archived" : d.enabled() ? "available" : "disabled";
        };
    }

    record DocMetadataBody(String id, String name, String type, String value) {
    }

    /** A document just made or changed, with its batch: the document's id, since indexing is done already. */
    record CreatedDocument(DocumentBody document, String batch) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record IndexingStatusBody(String id, String indexingStatus, long processingStartedAt, long parsingCompletedAt,
            long cleaningCompletedAt, long splittingCompletedAt, Long completedAt, Long pausedAt, String error,
            Long stoppedAt, int completedSegments, int totalSegments) {

        static IndexingStatusBody of(KnowledgeDocument d, int segments) {
            long at = d.created().getEpochSecond();
            boolean done = d.status() == DocumentStatus.COMPLETED;
            return new IndexingStatusBody(d.id(), d.status().wireName(), at, at, at, at, done ? at : null, null,
                    d.error().orElse(null), null, done ? segments : 0, segments);
        }
    }

    record IndexingStatuses(List<IndexingStatusBody> data) {
    }

    /** Dify's segment_fields; in a retrieval record it names its document too. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SegmentBody(String id, int position, String documentId, String content, String answer, int wordCount,
            int tokens, List<String> keywords, String indexNodeId, String indexNodeHash, long hitCount,
            boolean enabled, Long disabledAt, String disabledBy, String status, String createdBy, long createdAt,
            long indexingAt, long completedAt, String error, Long stoppedAt, List<Object> childChunks,
            @JsonInclude(JsonInclude.Include.NON_NULL) HitDocumentBody document) {

        static SegmentBody of(Chunk c, KnowledgeDocument d, HitDocumentBody document) {
            return of(c, d, document, List.of());
        }

        /** With its children, for a {@code hierarchical_model} document's segment. */
        static SegmentBody of(Chunk c, KnowledgeDocument d, HitDocumentBody document, List<ChildChunk> children) {
            long at = d.created().getEpochSecond();
            return new SegmentBody(c.id(), c.position(), c.documentId(), c.content(), "", c.wordCount(), c.tokens(),
                    c.keywords(), c.id(), c.indexNodeHash(), c.hitCount(), c.enabled(), null, null, "completed", "",
                    at, at, at, null, null, children.stream().map(child -> (Object) ChildChunkBody.of(child, d))
                            .toList(), document);
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record HitDocumentBody(String id, String dataSourceType, String name, String docType,
            Map<String, String> docMetadata) {
    }

    /** The segments a create-segments call added. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SegmentsAnswer(List<SegmentBody> data, String docForm) {
    }

    /** One segment, read or edited. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SegmentAnswer(SegmentBody data, String docForm) {
    }

    /** One page of a list, as Dify pages datasets and documents. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Page<T>(List<T> data, boolean hasMore, int limit, int total, int page) {

        static <T> Page<T> of(List<T> all, int page, int limit) {
            int from = (int) Math.min(all.size(), (long) (page - 1) * limit);
            int to = Math.min(all.size(), from + limit);
            return new Page<>(all.subList(from, to), to < all.size(), limit, all.size(), page);
        }
    }

    /** A page of segments, which says their form too. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record SegmentPage(List<SegmentBody> data, String docForm, boolean hasMore, int limit, int total, int page) {

        static SegmentPage of(Page<SegmentBody> page, String docForm) {
            return new SegmentPage(page.data(), docForm, page.hasMore(), page.limit(), page.total(), page.page());
        }
    }

    record RetrieveAnswer(QueryBody query, List<RecordBody> records) {
    }

    record QueryBody(String content) {
    }

    /** Dify's hit_testing_record_fields. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record RecordBody(SegmentBody segment, List<Object> childChunks, double score, Object tsnePosition,
            List<Object> files, String summary) {

        static RecordBody of(RetrievedChunk hit) {
            KnowledgeDocument d = hit.document();
            HitDocumentBody document = new HitDocumentBody(d.id(), "upload_file", d.name(), null,
                    d.metadata().isEmpty() ? null : d.metadata());
            return new RecordBody(SegmentBody.of(hit.chunk(), d, document), hit.children().stream()
                    .map(c -> (Object) new HitChildBody(c.child().id(), c.child().content(), c.child().position(),
                            c.score())).toList(), hit.score(), null, List.of(), null);
        }
    }

    /** A document's form: {@code hierarchical_model} when its chunks have children. */
    static String docForm(List<ChildChunk> children) {
        return children.isEmpty() ? DOC_FORM : HIERARCHICAL;
    }

    /** A child chunk that matched, in a retrieval record (Dify's {@code child_chunk} of hit testing). */
    record HitChildBody(String id, String content, int position, double score) {
    }

    /** Dify's {@code child_chunk_fields}; a child is {@code automatic}, cut by the splitter, or added by hand. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ChildChunkBody(String id, String segmentId, String content, int position, int wordCount, String type,
            long createdAt, long updatedAt) {
        static ChildChunkBody of(ChildChunk c, KnowledgeDocument d) {
            long at = d.created().getEpochSecond();
            return new ChildChunkBody(c.id(), c.segmentId(), c.content(), c.position(), c.wordCount(), "automatic",
                    at, at);
        }
    }

    record ChildChunkAnswer(ChildChunkBody data) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ChildChunkPage(List<ChildChunkBody> data, int total, int totalPages, int page, int limit) {
        static ChildChunkPage of(List<ChildChunkBody> all, int page, int limit) {
            Page<ChildChunkBody> one = Page.of(all, page, limit);
            return new ChildChunkPage(one.data(), all.size(), (all.size() + limit - 1) / limit, page, limit);
        }
    }

    /** Dify's {@code dataset_metadata_fields}. */
    record MetadataFieldBody(String id, String type, String name) {
        static MetadataFieldBody of(MetadataField field) {
            return new MetadataFieldBody(field.id(), field.type().wireName(), field.name());
        }
    }

    record CountedFieldBody(String id, String name, String type, int count) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record MetadataList(List<CountedFieldBody> docMetadata, boolean builtInFieldEnabled) {
        static MetadataList of(ManageMetadataUseCase.BaseMetadata metadata) {
            return new MetadataList(metadata.fields().stream().map(c -> new CountedFieldBody(c.field().id(),
                    c.field().name(), c.field().type().wireName(), c.documents())).toList(), metadata.builtInEnabled());
        }
    }

    record BuiltInField(String name, String type) {
    }

    record BuiltInFields(List<BuiltInField> fields) {
        static final BuiltInFields ALL = new BuiltInFields(BuiltInMetadata.types().entrySet().stream()
                .map(e -> new BuiltInField(e.getKey(), e.getValue().wireName())).toList());
    }

    record Result(String result) {
        static final Result SUCCESS = new Result("success");
    }
}
