package dev.hexaflow.adapters.http.serviceapi.datasets;

import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.json;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.object;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.positive;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.ChildChunkAnswer;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.ChildChunkBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.ChildChunkPage;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.Page;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.SegmentAnswer;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.SegmentBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.SegmentPage;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.SegmentsAnswer;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.knowledge.port.in.AddChunksCommand;
import dev.hexaflow.application.knowledge.port.in.EditChunkCommand;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The Knowledge API's segments (a document's chunks) and their child chunks, in Dify's shapes, under a document of
 * a dataset: listed, added, read, edited and deleted. {@link KnowledgeApiRoutes} adds them with the rest of the API.
 */
final class KnowledgeSegmentRoutes implements RouteGroup {

    private static final String PREFIX = "/v1/datasets";

    private final ManageKnowledgeBasesUseCase bases;
    private final ManageDocumentsUseCase documents;

    KnowledgeSegmentRoutes(ManageKnowledgeBasesUseCase bases, ManageDocumentsUseCase documents) {
        this.bases = bases;
        this.documents = documents;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        get(routes, PREFIX + "/{id}/documents/{doc}/segments", this::listSegments);
        post(routes, PREFIX + "/{id}/documents/{doc}/segments", this::createSegments);
        get(routes, PREFIX + "/{id}/documents/{doc}/segments/{segment}", this::readSegment);
        post(routes, PREFIX + "/{id}/documents/{doc}/segments/{segment}", this::editSegment);
        routes.delete(PREFIX + "/{id}/documents/{doc}/segments/{segment}", this::deleteSegment,
                DatasetAccess.DATASETS);
        String children = PREFIX + "/{id}/documents/{doc}/segments/{segment}/child_chunks";
        get(routes, children, this::listChildChunks);
        post(routes, children, ctx -> {
            KnowledgeDocument d = document(ctx);
            json(ctx, 200, new ChildChunkAnswer(ChildChunkBody.of(documents.addChildChunk(d.id(),
                    ctx.pathParam("segment"), childContent(ctx)), d)));
        });
        routes.patch(children + "/{child}", ctx -> {
            KnowledgeDocument d = document(ctx);
            json(ctx, 200, new ChildChunkAnswer(ChildChunkBody.of(documents.editChildChunk(d.id(),
                    ctx.pathParam("segment"), ctx.pathParam("child"), childContent(ctx)), d)));
        }, DatasetAccess.DATASETS);
        routes.delete(children + "/{child}", ctx -> {
            documents.deleteChildChunk(document(ctx).id(), ctx.pathParam("segment"), ctx.pathParam("child"));
            ctx.status(204);
        }, DatasetAccess.DATASETS);
    }

    private void get(RoutesConfig routes, String path, Handler handler) {
        routes.get(path, handler, DatasetAccess.DATASETS);
    }

    private void post(RoutesConfig routes, String path, Handler handler) {
        routes.post(path, handler, DatasetAccess.DATASETS);
    }

    /** The document the path names, in the dataset the path names. */
    private KnowledgeDocument document(Context ctx) {
        String baseId = bases.find(ctx.pathParam("id")).orElseThrow(() -> HttpRefusal.notFound("Dataset not found."))
                .id();
        return documents.document(ctx.pathParam("doc")).filter(d -> d.baseId().equals(baseId))
                .orElseThrow(() -> HttpRefusal.notFound("Document not found."));
    }

    // Segments

    private void listSegments(Context ctx) {
        KnowledgeDocument d = document(ctx);
        int page = positive(ctx, "page", 1, Integer.MAX_VALUE);
        int limit = positive(ctx, "limit", 20, 100);
        String keyword = Optional.ofNullable(ctx.queryParam("keyword")).orElse("").toLowerCase(Locale.ROOT);
        String status = Optional.ofNullable(ctx.queryParam("status")).orElse("");
        List<ChildChunk> all = documents.childChunks(d.id());
        String form = KnowledgeBodies.docForm(all);
        Map<String, List<ChildChunk>> children = all.stream().collect(Collectors.groupingBy(ChildChunk::segmentId));
        List<SegmentBody> shown = documents.chunks(d.id()).stream()
                .filter(c -> keyword.isEmpty() || c.content().toLowerCase(Locale.ROOT).contains(keyword))
                .filter(c -> status.isEmpty() || status.equals("completed"))
                .map(c -> SegmentBody.of(c, d, null, children.getOrDefault(c.id(), List.of()))).toList();
        json(ctx, 200, SegmentPage.of(Page.of(shown, page, limit), form));
    }

    /** {@code {"segments": [{"content", "answer"?, "keywords"?}]}}: added and searchable at once; answer is not kept. */
    private void createSegments(Context ctx) {
        KnowledgeDocument d = document(ctx);
        JsonNode segments = object(ctx).path("segments");
        if (!segments.isArray()) {
            throw HttpRefusal.invalid("Segments is required");
        }
        List<AddChunksCommand.NewChunk> chunks = new ArrayList<>();
        for (JsonNode segment : segments) {
            if (!segment.isObject()) {
                throw HttpRefusal.invalid("Each segment must be an object with content.");
            }
            List<String> keywords = new ArrayList<>();
            JsonNode given = segment.path("keywords");
            if (!given.isMissingNode() && !given.isNull() && !given.isArray()) {
                throw HttpRefusal.invalid("keywords must be a list of strings.");
            }
            given.forEach(keyword -> keywords.add(keyword.asText()));
            chunks.add(new AddChunksCommand.NewChunk(text(segment, "content").orElse(""), keywords));
        }
        List<Chunk> added = documents.addChunks(new AddChunksCommand(d.id(), chunks));
        json(ctx, 200, new SegmentsAnswer(added.stream().map(c -> SegmentBody.of(c, d, null)).toList(),
                KnowledgeBodies.DOC_FORM));
    }

    private void readSegment(Context ctx) {
        KnowledgeDocument d = document(ctx);
        Chunk chunk = documents.chunks(d.id()).stream().filter(c -> c.id().equals(ctx.pathParam("segment")))
                .findFirst().orElseThrow(() -> HttpRefusal.notFound("Segment not found."));
        List<ChildChunk> children = documents.childChunks(d.id());
        json(ctx, 200, new SegmentAnswer(SegmentBody.of(chunk, d, null, children.stream()
                .filter(c -> c.segmentId().equals(chunk.id())).toList()), KnowledgeBodies.docForm(children)));
    }

    /** {@code {"segment": {"content"?, "enabled"?, "answer"?, "keywords"?}}}: content and enabled are kept. */
    private void editSegment(Context ctx) {
        KnowledgeDocument d = document(ctx);
        JsonNode segment = object(ctx).path("segment");
        if (!segment.isObject()) {
            throw HttpRefusal.invalid("segment is required.");
        }
        Optional<String> content = text(segment, "content");
        if (content.isPresent() && content.get().isBlank()) {
            throw HttpRefusal.invalid("Content is empty");
        }
        Optional<Boolean> enabled = segment.path("enabled").isBoolean()
                ? Optional.of(segment.path("enabled").booleanValue()) : Optional.empty();
        Chunk edited = documents.edit(new EditChunkCommand(d.id(), ctx.pathParam("segment"), content, enabled));
        json(ctx, 200, new SegmentAnswer(SegmentBody.of(edited, d, null), KnowledgeBodies.DOC_FORM));
    }

    private void deleteSegment(Context ctx) {
        documents.deleteChunk(document(ctx).id(), ctx.pathParam("segment"));
        ctx.status(204);
    }

    // Child chunks

    private void listChildChunks(Context ctx) {
        KnowledgeDocument d = document(ctx);
        int page = positive(ctx, "page", 1, Integer.MAX_VALUE);
        int limit = positive(ctx, "limit", 20, 100);
        String keyword = Optional.ofNullable(ctx.queryParam("keyword")).orElse("").toLowerCase(Locale.ROOT);
        List<ChildChunkBody> shown = documents.childChunks(d.id(), ctx.pathParam("segment")).stream()
                .filter(c -> keyword.isEmpty() || c.content().toLowerCase(Locale.ROOT).contains(keyword))
                .map(c -> ChildChunkBody.of(c, d)).toList();
        json(ctx, 200, ChildChunkPage.of(shown, page, limit));
    }

    /** {@code {"content"}}: a child chunk's text. */
    private static String childContent(Context ctx) {
        String content = text(object(ctx), "content").orElse("");
        if (content.isBlank()) {
            throw HttpRefusal.invalid("Content is empty");
        }
        return content;
    }
}
