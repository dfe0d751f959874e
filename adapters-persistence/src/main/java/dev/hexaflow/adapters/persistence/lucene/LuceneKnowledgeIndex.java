package dev.hexaflow.adapters.persistence.lucene;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * The knowledge search index in a directory ({@code <data dir>/knowledge/}), one Lucene index for every base.
 *
 * <p>Words: a chunk's text is indexed once per {@link KeywordAnalyzer}, a field each ({@link LuceneAnalyzers}), and
 * a base's search reads the field of its own analyzer; matches are scored by BM25. The index's commits carry the
 * version of those fields ({@link #FORMAT}): an index written before them is found stale, and rebuilt at start.
 * Meaning: each chunk's vector in an HNSW graph ({@link KnnFloatVectorField},
 * cosine), one field per vector length so that bases with different models can share the index.
 *
 * <p>Every change is committed and visible to searches when its call returns.
 */
public final class LuceneKnowledgeIndex implements KnowledgeIndex, AutoCloseable {

    static final String ID = "id";
    static final String BASE = "base";
    static final String DOCUMENT = "document";
    /** The commit data that names the fields' version; an index without it has the one CJK field of old. */
    private static final String FORMAT_KEY = "hexaflow.keyword-fields";
    static final String FORMAT = "auto,english,cjk,standard";
    /** The most words of a query searched for: Lucene refuses a query of more than 1024 clauses. */
    static final int MAX_QUERY_TERMS = 1000;

    /** Where the index is kept; null for one in memory. */
    private final Path path;
    private volatile Directory directory;
    private volatile Analyzer analyzer;
    private volatile IndexWriter writer;
    private volatile SearcherManager searchers;
    private volatile boolean opened;
    private volatile boolean closed;
    private volatile boolean foundOnDisk;
    /** Whether the index holds today's fields: false for one written before them, until it is rebuilt. */
    private volatile boolean currentFormat = true;

    /**
     * An index in {@code path}, opened by its first use: opening it (Lucene's classes, its files, a commit) took
     * some 0.2 s of a start (BENCHMARKS.md, issue 40), whose check against the store opens it only if either holds
     * chunks.
     */
    public LuceneKnowledgeIndex(Path path) {
        this.path = path;
    }

    /** Opens the index on disk once; refused once it is closed, as Lucene refuses a closed writer. */
    private void openOnFirstUse() {
        if (opened) {
            return;
        }
        synchronized (this) {
            if (closed) {
                throw new AlreadyClosedException("the knowledge index is closed");
            }
            if (opened) {
                return;
            }
            try {
                directory = OwnerOnlyDirectory.open(path);
                foundOnDisk = DirectoryReader.indexExists(directory);
                if (foundOnDisk) {
                    try (DirectoryReader reader = DirectoryReader.open(directory)) {
                        currentFormat = FORMAT.equals(reader.getIndexCommit().getUserData().get(FORMAT_KEY));
                    }
                }
                open();
            } catch (IOException | RuntimeException e) {
                // Nothing half-open is kept (a writer would hold the index's lock): the next use tries again.
                IOUtils.closeWhileHandlingException(searchers, writer, directory);
                throw new UncheckedIOException("the knowledge index at " + path + " cannot be opened",
                        e instanceof IOException io ? io : new IOException(e));
            }
        }
    }

    /**
     * An index in memory, found stale until it is rebuilt: for an instance that shares its store with others, each
     * of which holds its own index (one Lucene index takes one writer), rebuilt from the store.
     */
    public static LuceneKnowledgeIndex inMemory() {
        return new LuceneKnowledgeIndex(new ByteBuffersDirectory());
    }

    private LuceneKnowledgeIndex(Directory memory) {
        path = null;
        directory = memory;
        foundOnDisk = false;
        try {
            open();
        } catch (IOException e) {
            throw new UncheckedIOException("a knowledge index in memory cannot be opened", e);
        }
    }

    private void open() throws IOException {
        analyzer = LuceneAnalyzers.perField();
        writer = newWriter();
        writer.commit();
        searchers = new SearcherManager(writer, null);
        opened = true;
    }

    @Override
    public void add(Collection<StoredChunk> chunks) {
        write(() -> {
            for (StoredChunk chunk : chunks) {
                writer.updateDocument(new Term(ID, chunk.id()), ChunkDocuments.of(chunk));
            }
        });
    }

    @Override
    public void remove(String documentId, String chunkId) {
        write(() -> writer.deleteDocuments(new Term(ID, chunkId)));
    }

    @Override
    public void removeDocument(String documentId) {
        write(() -> writer.deleteDocuments(new Term(DOCUMENT, documentId)));
    }

    @Override
    public void removeBase(String baseId) {
        write(() -> writer.deleteDocuments(new Term(BASE, baseId)));
    }

    @Override
    public List<Hit> byWords(String baseId, KeywordAnalyzer analysis, String query, Set<String> documentIds,
            int limit) {
        openOnFirstUse();
        String field = LuceneAnalyzers.field(analysis);
        Set<String> terms = terms(field, query);
        if (terms.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder words = new BooleanQuery.Builder();
        for (String term : terms) {
            words.add(new TermQuery(new Term(field, term)), BooleanClause.Occur.SHOULD);
        }
        BooleanQuery.Builder search = new BooleanQuery.Builder().add(words.build(), BooleanClause.Occur.MUST)
                .add(scope(baseId, documentIds), BooleanClause.Occur.FILTER);
        return search(search.build(), limit, false);
    }

    @Override
    public List<Hit> byVector(String baseId, float[] vector, Set<String> documentIds, int limit) {
        if (ChunkDocuments.isZero(vector)) {
            return List.of();
        }
        return search(new KnnFloatVectorQuery(ChunkDocuments.vectorField(vector.length), vector, limit, scope(baseId, documentIds)),
                limit, true);
    }

    /**
     * Missing (with chunks to hold) or holding another number of chunks than the repository: a check by count,
     * which catches a lost or foreign index and a crash between the database and the index, not an index whose
     * chunks differ in content but not in number.
     */
    @Override
    public boolean isStale(long kept) {
        if (kept == 0 && !opened && !closed && OwnerOnlyDirectory.holdsNoIndex(path)) {
            return false; // a store without knowledge and no index on disk: a start need not open one
        }
        openOnFirstUse();
        return !foundOnDisk && kept > 0 || !currentFormat || count() != kept;
    }

    @Override
    public void rebuild(KnowledgeRepository repository) {
        write(() -> {
            writer.deleteAll();
            List<IOException> failures = new ArrayList<>();
            repository.forEachSearchableChunk(chunk -> {
                try {
                    writer.addDocument(ChunkDocuments.of(chunk));
                } catch (IOException e) {
                    failures.add(e);
                }
            });
            if (!failures.isEmpty()) {
                throw failures.get(0);
            }
            writer.setLiveCommitData(Map.of(FORMAT_KEY, FORMAT).entrySet());
        });
        foundOnDisk = true;
        currentFormat = true;
    }

    @Override
    public void rebuildDocument(String documentId, KnowledgeRepository repository) {
        // Read under the writer's lock, as a rebuild is: a change of this instance's own to the document is
        // written to the index before the read or after it, never overwritten by what the read found before it.
        write(() -> {
            List<StoredChunk> chunks = repository.searchableChunks(documentId);
            writer.deleteDocuments(new Term(DOCUMENT, documentId));
            for (StoredChunk chunk : chunks) {
                writer.addDocument(ChunkDocuments.of(chunk));
            }
        });
    }

    /** How many chunks the index holds. */
    public long count() {
        openOnFirstUse();
        try {
            SearcherManager manager = searchers;
            IndexSearcher searcher = manager.acquire();
            try {
                return searcher.getIndexReader().numDocs();
            } finally {
                manager.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (!opened) {
            return;
        }
        try {
            searchers.close();
            writer.close(); // nothing to do when a failed change left it closed
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Query scope(String baseId, Set<String> documentIds) {
        BooleanQuery.Builder scope = new BooleanQuery.Builder()
                .add(new TermQuery(new Term(BASE, baseId)), BooleanClause.Occur.FILTER);
        if (documentIds != null) {
            scope.add(new TermInSetQuery(DOCUMENT, documentIds.stream().map(BytesRef::new).toList()),
                    BooleanClause.Occur.FILTER);
        }
        return scope.build();
    }

    private List<Hit> search(Query query, int limit, boolean cosine) {
        openOnFirstUse();
        try {
            SearcherManager manager = searchers;
            IndexSearcher searcher = manager.acquire();
            try {
                TopDocs top = searcher.search(query, limit);
                List<Hit> hits = new ArrayList<>(top.scoreDocs.length);
                for (ScoreDoc doc : top.scoreDocs) {
                    Document stored = searcher.storedFields().document(doc.doc, Set.of(ID, DOCUMENT));
                    // Lucene's cosine score is (1 + cosine) / 2; the port speaks cosine.
                    double score = cosine ? 2.0 * doc.score - 1.0 : doc.score;
                    hits.add(new Hit(stored.get(ID), stored.get(DOCUMENT), score));
                }
                return hits;
            } finally {
                manager.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the knowledge index cannot be searched", e);
        }
    }

    private Set<String> terms(String field, String text) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream tokens = analyzer.tokenStream(field, text)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken() && terms.size() < MAX_QUERY_TERMS) {
                terms.add(term.toString());
            }
            tokens.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return terms;
    }

    private interface Change {
        void apply() throws IOException;
    }

    /**
     * Applies the change, commits it and makes it visible. A change the directory could not take (its disk is
     * full, or it cannot be written at all) is the store's failure, not the change's: it is refused as storage
     * that cannot keep it, with the file system's own words, and the writer is opened again by the next change.
     */
    private synchronized void write(Change change) {
        try {
            openOnFirstUse();
            ensureOpen();
            change.apply();
            writer.commit();
            searchers.maybeRefreshBlocking();
        } catch (IOException | RuntimeException e) {
            discardPending();
            Optional<String> osWords = ioFailure(e);
            if (osWords.isPresent()) {
                throw new StorageUnavailableException(StorageUnavailableException.Kind.WRITES_FAILING,
                        "The server cannot keep the knowledge index now: writing it in its data directory failed ("
                                + osWords.get() + "). Please try again later.", e);
            }
            throw new UncheckedIOException("the knowledge index cannot be written",
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * The file system's words for the innermost I/O failure behind {@code e}, when there is one: a writer that a
     * failed write closed (Lucene's "tragic" event) names it as its cause. Only the reason, not the path, which is
     * the operator's business and not a client's.
     */
    private static Optional<String> ioFailure(Throwable e) {
        String words = null;
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof FileSystemException fs) {
                words = fs.getReason() != null ? fs.getReason() : fs.getClass().getSimpleName();
            } else if (t instanceof IOException io) {
                words = io.getMessage() != null ? io.getMessage() : io.getClass().getSimpleName();
            }
        }
        return Optional.ofNullable(words);
    }

    /** Opens the writer again when a failed change left it closed (a directory that could not be written). */
    private void ensureOpen() throws IOException {
        if (writer.isOpen()) {
            return;
        }
        SearcherManager old = searchers;
        writer = newWriter();
        searchers = new SearcherManager(writer, null);
        old.close();
    }

    /** A writer on the directory; its commits name today's fields once the index holds them. */
    private IndexWriter newWriter() throws IOException {
        IndexWriter opened = new IndexWriter(directory, new IndexWriterConfig(analyzer)
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND));
        if (currentFormat) {
            opened.setLiveCommitData(Map.of(FORMAT_KEY, FORMAT).entrySet());
        }
        return opened;
    }

    /**
     * Drops what a failed change left uncommitted (so the next change does not commit half of it) by rolling the
     * writer back; the next change opens it again on the last commit. Searches go on meanwhile on what was last
     * committed.
     */
    private void discardPending() {
        try {
            writer.rollback();
        } catch (IOException | RuntimeException ignored) {
            // Closed either way; the next change opens it again.
        }
    }
}
