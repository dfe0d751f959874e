package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.AddDocumentUseCase;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChildChunk;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.ChunkBudget;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.TextMeasure;
import dev.hexaflow.domain.knowledge.TextSplitter;
import dev.hexaflow.domain.knowledge.TooManyChunksException;
import dev.hexaflow.workflow.port.out.DocumentTextExtractor;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Adds documents: the text (or the file's, through the document extractor) is split by the rules, kept as chunks,
 * then embedded and indexed. The chunks are kept before any embedding call, so a failed call loses nothing. Each is
 * new work, refused while the store takes none. A split that would make more chunks than one document may have is
 * refused before anything is kept.
 */
public final class AddDocumentService implements AddDocumentUseCase {

    private final KnowledgeRepository repository;
    private final DocumentTextExtractor extractor;
    private final Indexing indexing;
    private final Clock clock;
    private final Supplier<String> ids;
    private final StorageHealth storage;
    private final int maxChunksPerDocument;

    /** With {@link ChunkBudget#DEFAULT_MAX_CHUNKS} chunks a document. */
    public AddDocumentService(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings,
            DocumentTextExtractor extractor, Clock clock, Supplier<String> ids, StorageHealth storage) {
        this(repository, index, embeddings, extractor, clock, ids, storage, ChunkBudget.DEFAULT_MAX_CHUNKS);
    }

    /**
     * @param storage              new documents are refused while the store takes no new work
     * @param maxChunksPerDocument the most chunks (child chunks included) one document's split may make
     */
    public AddDocumentService(KnowledgeRepository repository, KnowledgeIndex index, Embeddings embeddings,
            DocumentTextExtractor extractor, Clock clock, Supplier<String> ids, StorageHealth storage,
            int maxChunksPerDocument) {
        if (maxChunksPerDocument < 1) {
            throw new IllegalArgumentException("the most chunks of a document must be at least 1, was "
                    + maxChunksPerDocument);
        }
        this.storage = storage;
        this.repository = repository;
        this.extractor = extractor;
        this.indexing = new Indexing(repository, index, embeddings);
        this.clock = clock;
        this.ids = ids;
        this.maxChunksPerDocument = maxChunksPerDocument;
    }

    @Override
    public KnowledgeDocument add(AddDocumentCommand command) {
        StorageRoom.require(storage);
        KnowledgeBase base = repository.findBase(command.baseId()).orElseThrow(() ->
                new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Dataset does not exist."));
        String text = text(command.content());
        if (text.isBlank()) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, "The document " + command.name()
                    + " has no text.");
        }
        // The rules are part of the hash: the same text split another way is another document.
        String hash = TextMeasure.hash(command.rules() + "\n" + command.hierarchy() + "\n" + text);
        Optional<KnowledgeDocument> same = repository.findDocumentByHash(base.id(), hash);
        if (same.isPresent()) {
            // The same content sent again for a document whose indexing failed is a client trying again.
            return same.get().status() == DocumentStatus.ERROR ? retry(same.get().id()) : same.get();
        }
        return store(base, ids.get(), command, text, hash, clock.instant());
    }

    @Override
    public KnowledgeDocument replace(String documentId, AddDocumentCommand command) {
        StorageRoom.require(storage);
        return DocumentLocks.with(documentId, () -> {
            KnowledgeDocument current = repository.findDocument(documentId)
                    .filter(d -> d.baseId().equals(command.baseId())).orElseThrow(() ->
                            new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Document not found."));
            if (current.archived()) {
                throw KnowledgeException.archived();
            }
            KnowledgeBase base = repository.findBase(command.baseId()).orElseThrow(() ->
                    new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Dataset does not exist."));
            String text = text(command.content());
            if (text.isBlank()) {
                throw new KnowledgeException(KnowledgeException.Reason.INVALID, "The document " + command.name()
                        + " has no text.");
            }
            return store(base, current.id(), command, text, TextMeasure.hash(command.rules() + "\n"
                    + command.hierarchy() + "\n" + text), current.created());
        });
    }

    /** Splits the text, keeps the document and its chunks (replacing any it had), then indexes them. */
    private KnowledgeDocument store(KnowledgeBase base, String id, AddDocumentCommand command, String text,
            String hash, Instant created) {
        List<ParentChildRules.Split> splits = split(command, text);
        KnowledgeDocument document;
        try {
            document = new KnowledgeDocument(id, base.id(), command.name(),
                    command.content() instanceof AddDocumentCommand.File ? "upload_file" : "text",
                    TextMeasure.words(text), hash, DocumentStatus.INDEXING, Optional.empty(), true,
                    command.metadata(), created);
        } catch (IllegalArgumentException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
        }
        List<StoredChunk> chunks = new ArrayList<>(splits.size());
        List<StoredChildChunk> children = new ArrayList<>();
        for (int i = 0; i < splits.size(); i++) {
            String piece = splits.get(i).parent();
            Chunk chunk = new Chunk(ids.get(), document.id(), base.id(), i + 1, piece, TextMeasure.words(piece),
                    TextMeasure.tokens(piece), List.of(), TextMeasure.hash(piece), 0, true);
            chunks.add(StoredChunk.of(chunk, null));
            List<String> pieces = splits.get(i).children();
            for (int j = 0; j < pieces.size(); j++) {
                children.add(StoredChildChunk.of(new ChildChunk(ids.get(), chunk.id(), document.id(), base.id(),
                        j + 1, pieces.get(j)), null));
            }
        }
        repository.saveDocument(document);
        repository.replaceChunks(document.id(), chunks);
        repository.replaceChildChunks(document.id(), children);
        return indexing.index(base, document);
    }

    /**
     * The text's chunks by the command's rules, within the budget of one document.
     *
     * @throws KnowledgeException (invalid) naming the budget when the split would pass it
     */
    private List<ParentChildRules.Split> split(AddDocumentCommand command, String text) {
        ChunkBudget budget = new ChunkBudget(maxChunksPerDocument);
        try {
            return command.hierarchy().map(h -> h.split(text, budget)).orElseGet(() ->
                    new TextSplitter(command.rules()).split(text, budget).stream()
                            .map(piece -> new ParentChildRules.Split(piece, List.of())).toList());
        } catch (TooManyChunksException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
        }
    }

    @Override
    public KnowledgeDocument retry(String documentId) {
        StorageRoom.require(storage);
        return DocumentLocks.with(documentId, () -> {
            KnowledgeDocument document = repository.findDocument(documentId).orElseThrow(() ->
                    new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Document not found."));
            KnowledgeBase base = repository.findBase(document.baseId()).orElseThrow(() ->
                    new KnowledgeException(KnowledgeException.Reason.NOT_FOUND, "Dataset not found."));
            KnowledgeDocument again = document.reindexing();
            repository.saveDocument(again);
            return indexing.index(base, again);
        });
    }

    private String text(AddDocumentCommand.Content content) {
        if (content instanceof AddDocumentCommand.Text given) {
            return given.text();
        }
        AddDocumentCommand.File file = (AddDocumentCommand.File) content;
        try {
            return extractor.extract(file.bytes(), file.extension(), file.mimeType());
        } catch (DocumentTextExtractor.ExtractionException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
        }
    }
}
