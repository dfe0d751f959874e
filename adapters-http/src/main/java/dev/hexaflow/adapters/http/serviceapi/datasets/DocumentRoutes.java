package dev.hexaflow.adapters.http.serviceapi.datasets;

import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.json;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.object;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.positive;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.technique;
import static dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeRequests.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.datasets.DatasetKeyAuthentication.DatasetAccess;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.CreatedDocument;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.DocumentBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.IndexingStatusBody;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.IndexingStatuses;
import dev.hexaflow.adapters.http.serviceapi.datasets.KnowledgeBodies.Page;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.AddDocumentUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageDocumentsUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeBasesUseCase;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.SplittingRules;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Knowledge API's documents of a dataset: created and updated by text or by file (each under both of Dify's
 * spellings), listed, read, deleted, and their indexing status, in Dify's shapes. Indexing is done when a document
 * call returns, so a batch's indexing status is final at once; a batch is named by its document's id.
 * {@link KnowledgeApiRoutes} adds them with the rest of the API.
 */
final class DocumentRoutes implements RouteGroup {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "/v1/datasets";
    private static final String DOC_FORM_TEXT = "text_model";
    private static final String DOC_FORM_HIERARCHICAL = "hierarchical_model";

    private final ManageKnowledgeBasesUseCase bases;
    private final AddDocumentUseCase add;
    private final ManageDocumentsUseCase documents;
    private final ManageMetadataUseCase metadata;

    DocumentRoutes(ManageKnowledgeBasesUseCase bases, AddDocumentUseCase add, ManageDocumentsUseCase documents,
            ManageMetadataUseCase metadata) {
        this.bases = bases;
        this.add = add;
        this.documents = documents;
        this.metadata = metadata;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        post(routes, PREFIX + "/{id}/document/create-by-text", this::createByText);
        post(routes, PREFIX + "/{id}/document/create_by_text", this::createByText);
        post(routes, PREFIX + "/{id}/document/create-by-file", this::createByFile);
        post(routes, PREFIX + "/{id}/document/create_by_file", this::createByFile);
        routes.get(PREFIX + "/{id}/documents", this::listDocuments, DatasetAccess.DATASETS);
        routes.get(PREFIX + "/{id}/documents/{batch}/indexing-status", this::indexingStatus, DatasetAccess.DATASETS);
        routes.get(PREFIX + "/{id}/documents/{doc}", ctx -> json(ctx, 200, documentBody(document(ctx))),
                DatasetAccess.DATASETS);
        routes.delete(PREFIX + "/{id}/documents/{doc}", this::deleteDocument, DatasetAccess.DATASETS);
        post(routes, PREFIX + "/{id}/documents/{doc}/update-by-text", this::updateByText);
        post(routes, PREFIX + "/{id}/documents/{doc}/update_by_text", this::updateByText);
        post(routes, PREFIX + "/{id}/documents/{doc}/update-by-file", this::updateByFile);
        post(routes, PREFIX + "/{id}/documents/{doc}/update_by_file", this::updateByFile);
    }

    private static void post(RoutesConfig routes, String path, Handler handler) {
        routes.post(path, handler, DatasetAccess.DATASETS);
    }

    private void createByText(Context ctx) {
        KnowledgeBase base = bases.find(ctx.pathParam("id")).orElseThrow(() ->
                HttpRefusal.invalid("Dataset does not exist."));
        JsonNode body = object(ctx);
        String name = text(body, "name").filter(n -> !n.isBlank()).orElseThrow(() ->
                HttpRefusal.invalid("name is required."));
        String text = text(body, "text").orElseThrow(() -> HttpRefusal.invalid("text is required."));
        technique(body);
        KnowledgeDocument document = add.add(command(base.id(), name,
                new AddDocumentCommand.Text(text), body, Map.of()));
        json(ctx, 200, created(document));
    }

    /** A create- or update-by-file body: the file when one was sent, and the {@code data} part's options. */
    private record FileUpload(Optional<AddDocumentCommand.File> file, String filename, JsonNode options) {
    }

    /**
     * Reads Dify's multipart document body: one {@code file} part (required unless {@code fileOptional}) and a
     * {@code data} part holding a JSON object of options.
     */
    private static FileUpload upload(Context ctx, boolean fileOptional) {
        List<UploadedFile> files;
        String data;
        try {
            boolean multipart = ctx.contentType() != null
                    && ctx.contentType().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
            files = multipart ? ctx.uploadedFiles("file") : List.of();
            data = multipart ? ctx.formParam("data") : null;
        } catch (Exception e) {
            // Jetty's ServletException for a body that is no multipart at all is checked, yet thrown here.
            ctx.header("Connection", "close");
            throw HttpRefusal.invalid("The multipart body cannot be read.");
        }
        if (files.isEmpty() && !fileOptional) {
            throw new HttpRefusal(400, "no_file_uploaded", "Please upload your file.");
        }
        if (files.size() > 1) {
            throw new HttpRefusal(400, "too_many_files", "Only one file is allowed.");
        }
        JsonNode options = JSON.createObjectNode();
        if (data != null && !data.isBlank()) {
            try {
                options = JSON.readTree(data);
            } catch (IOException e) {
                throw HttpRefusal.invalid("data must be a JSON object.");
            }
            if (options == null || !options.isObject()) {
                throw HttpRefusal.invalid("data must be a JSON object.");
            }
        }
        technique(options);
        if (files.isEmpty()) {
            return new FileUpload(Optional.empty(), "", options);
        }
        UploadedFile file = files.get(0);
        String filename = file.filename() == null || file.filename().isBlank() ? "file" : file.filename();
        int dot = filename.lastIndexOf('.');
        if (dot < 0) {
            throw new HttpRefusal(415, "unsupported_file_type", "File type not allowed.");
        }
        byte[] bytes;
        try (InputStream in = file.content()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw HttpRefusal.invalid("The uploaded file cannot be read.");
        }
        String name = filename.length() > KnowledgeDocument.MAX_NAME ? filename.substring(0, KnowledgeDocument.MAX_NAME)
                : filename;
        return new FileUpload(Optional.of(new AddDocumentCommand.File(bytes, filename.substring(dot)
                .toLowerCase(Locale.ROOT), file.contentType())), name, options);
    }

    private void createByFile(Context ctx) {
        KnowledgeBase base = bases.find(ctx.pathParam("id")).orElseThrow(() ->
                HttpRefusal.invalid("Dataset does not exist."));
        FileUpload upload = upload(ctx, false);
        KnowledgeDocument document = add.add(command(base.id(), upload.filename(),
                upload.file().orElseThrow(), upload.options(), Map.of()));
        json(ctx, 200, created(document));
    }

    /**
     * Dify's update-by-file: the document's text replaced by the file's, split by the {@code data} part's
     * process_rule, named after the file; without a file, the document indexed again from its kept chunks (as
     * Dify indexes an updated document again) when its indexing failed, or else as it is.
     */
    private void updateByFile(Context ctx) {
        KnowledgeBase base = existing(ctx);
        KnowledgeDocument current = document(ctx);
        FileUpload upload = upload(ctx, true);
        if (upload.file().isEmpty()) {
            json(ctx, 200, created(indexedAgainIfFailed(current)));
            return;
        }
        KnowledgeDocument replaced = add.replace(current.id(), command(base.id(), upload.filename(),
                upload.file().get(), upload.options(), current.metadata()));
        json(ctx, 200, created(replaced));
    }

    private void updateByText(Context ctx) {
        KnowledgeBase base = existing(ctx);
        KnowledgeDocument current = document(ctx);
        JsonNode body = object(ctx);
        Optional<String> text = text(body, "text");
        Optional<String> name = text(body, "name").filter(n -> !n.isBlank());
        if (text.isEmpty()) {
            if (name.isPresent()) {
                throw HttpRefusal.invalid("text is required when name is provided.");
            }
            json(ctx, 200, created(indexedAgainIfFailed(current)));
            return;
        }
        KnowledgeDocument replaced = add.replace(current.id(), command(base.id(),
                name.orElse(current.name()), new AddDocumentCommand.Text(text.get()), body, current.metadata()));
        json(ctx, 200, created(replaced));
    }

    /**
     * An update that brings no new content: Dify indexes the document again, which here matters only for one whose
     * indexing failed (its embedding endpoint was down, its server stopped): indexed again from its kept chunks.
     */
    private KnowledgeDocument indexedAgainIfFailed(KnowledgeDocument current) {
        return current.status() == DocumentStatus.ERROR ? add.retry(current.id()) : current;
    }

    private void listDocuments(Context ctx) {
        KnowledgeBase base = existing(ctx);
        int page = positive(ctx, "page", 1, Integer.MAX_VALUE);
        int limit = positive(ctx, "limit", 20, 100);
        String keyword = Optional.ofNullable(ctx.queryParam("keyword")).orElse("").toLowerCase(Locale.ROOT);
        String status = Optional.ofNullable(ctx.queryParam("status")).orElse("");
        List<KnowledgeDocument> all = documents.documents(base.id());
        List<DocumentBody> shown = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            KnowledgeDocument d = all.get(i);
            if ((keyword.isEmpty() || d.name().toLowerCase(Locale.ROOT).contains(keyword))
                    && (status.isEmpty() || KnowledgeBodies.shownStatus(d).equals(status))) {
                shown.add(documentBody(d, i + 1));
            }
        }
        json(ctx, 200, Page.of(shown, page, limit));
    }

    private void indexingStatus(Context ctx) {
        String baseId = existing(ctx).id();
        KnowledgeDocument d = documents.document(ctx.pathParam("batch"))
                .filter(doc -> doc.baseId().equals(baseId))
                .orElseThrow(() -> HttpRefusal.notFound("Documents not found."));
        json(ctx, 200, new IndexingStatuses(List.of(IndexingStatusBody.of(d, documents.chunks(d.id()).size()))));
    }

    private void deleteDocument(Context ctx) {
        documents.delete(document(ctx).id());
        ctx.status(204);
    }

    private KnowledgeDocument document(Context ctx) {
        String baseId = existing(ctx).id();
        return documents.document(ctx.pathParam("doc")).filter(d -> d.baseId().equals(baseId))
                .orElseThrow(() -> HttpRefusal.notFound("Document not found."));
    }

    private CreatedDocument created(KnowledgeDocument document) {
        return new CreatedDocument(documentBody(document), document.id());
    }

    private DocumentBody documentBody(KnowledgeDocument document) {
        List<KnowledgeDocument> all = documents.documents(document.baseId());
        int position = 1;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).id().equals(document.id())) {
                position = i + 1;
            }
        }
        return documentBody(document, position);
    }

    private DocumentBody documentBody(KnowledgeDocument d, int position) {
        return DocumentBody.of(d, position, documents.chunks(d.id()), metadata.valuesOf(d),
                KnowledgeBodies.docForm(documents.childChunks(d.id())));
    }

    /**
     * A document to add, split by the body's {@code process_rule}: into parent and child chunks when its
     * {@code doc_form} is {@code hierarchical_model}.
     */
    private static AddDocumentCommand command(String baseId, String name, AddDocumentCommand.Content content,
            JsonNode body, Map<String, String> metadata) {
        JsonNode rule = body.path("process_rule");
        String form = body.path("doc_form").asText(DOC_FORM_TEXT);
        Optional<ParentChildRules> hierarchy;
        try {
            hierarchy = switch (form) {
                case DOC_FORM_TEXT -> Optional.empty();
                case DOC_FORM_HIERARCHICAL -> Optional.of(ProcessRules.hierarchy(rule));
                default -> throw HttpRefusal.invalid("doc_form must be text_model or hierarchical_model.");
            };
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
        return new AddDocumentCommand(baseId, name, content, hierarchy.isPresent() ? SplittingRules.AUTOMATIC
                : rules(rule), metadata, hierarchy);
    }

    private static SplittingRules rules(JsonNode rule) {
        try {
            return ProcessRules.read(rule);
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
    }

    private KnowledgeBase existing(Context ctx) {
        return DatasetRoutes.existing(bases, ctx);
    }
}
