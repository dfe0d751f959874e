package dev.hexaflow.adapters.persistence.lucene;

import dev.hexaflow.application.common.port.out.InstanceSignals;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The knowledge index of an instance that shares its store: each instance holds an index of its own (in memory),
 * tells the others which document (or base) it changed, and when told rebuilds that document of its own index from
 * the store, or drops that base; when it may have missed a change it rebuilds the whole index. Changes told close
 * together are applied once, {@link #SETTLE} after the first, by which time the store holds what the other
 * instance wrote with its change. So a change elsewhere costs the document's chunks, not the whole index.
 */
public final class LuceneSharedKnowledgeIndex implements KnowledgeIndex, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LuceneSharedKnowledgeIndex.class);
    private static final String TOPIC = "knowledge";
    private static final String DOCUMENT = "document ";
    private static final String BASE = "base ";
    static final long SETTLE = 100;
    private static final long RETRY_AFTER = 5;

    private final KnowledgeIndex own;
    private final KnowledgeRepository repository;
    private final InstanceSignals instances;
    /** What was told and is not yet applied: "document id" and "base id", or {@link #EVERYTHING}. */
    private final Set<String> due = ConcurrentHashMap.newKeySet();
    private static final String EVERYTHING = "*";
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ScheduledExecutorService rebuilds = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "hexaflow-knowledge-rebuild");
        thread.setDaemon(true);
        return thread;
    });

    public LuceneSharedKnowledgeIndex(KnowledgeIndex own, KnowledgeRepository repository, InstanceSignals instances) {
        this.own = own;
        this.repository = repository;
        this.instances = instances;
        instances.hear(TOPIC, this::applySoon);
        instances.onMissed(() -> applySoon(EVERYTHING));
    }

    private void applySoon(String change) {
        due.add(change);
        if (scheduled.compareAndSet(false, true)) {
            rebuilds.schedule(this::applyDue, SETTLE, TimeUnit.MILLISECONDS);
        }
    }

    /** Applies what is due; what is told meanwhile is applied by the next call, which it schedules. */
    private void applyDue() {
        scheduled.set(false);
        List<String> changes = List.copyOf(due);
        due.removeAll(changes);
        try {
            if (changes.contains(EVERYTHING)) {
                own.rebuild(repository);
                return;
            }
            for (String change : changes) {
                if (change.startsWith(BASE)) {
                    own.removeBase(change.substring(BASE.length()));
                } else if (change.startsWith(DOCUMENT)) {
                    own.rebuildDocument(change.substring(DOCUMENT.length()), repository);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Applying another instance's change to the knowledge index failed; it is rebuilt whole in {} s: "
                    + "{}", RETRY_AFTER, e.toString());
            due.add(EVERYTHING);
            if (scheduled.compareAndSet(false, true)) {
                rebuilds.schedule(this::applyDue, RETRY_AFTER, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public void add(Collection<StoredChunk> chunks) {
        own.add(chunks);
        chunks.stream().map(chunk -> chunk.chunk().documentId()).distinct()
                .forEach(document -> instances.tell(TOPIC, DOCUMENT + document));
    }

    @Override
    public void remove(String documentId, String chunkId) {
        own.remove(documentId, chunkId);
        instances.tell(TOPIC, DOCUMENT + documentId);
    }

    @Override
    public void removeDocument(String documentId) {
        own.removeDocument(documentId);
        instances.tell(TOPIC, DOCUMENT + documentId);
    }

    @Override
    public void removeBase(String baseId) {
        own.removeBase(baseId);
        instances.tell(TOPIC, BASE + baseId);
    }

    @Override
    public List<Hit> byWords(String baseId, KeywordAnalyzer analyzer, String query, Set<String> documentIds,
            int limit) {
        return own.byWords(baseId, analyzer, query, documentIds, limit);
    }

    @Override
    public List<Hit> byVector(String baseId, float[] vector, Set<String> documentIds, int limit) {
        return own.byVector(baseId, vector, documentIds, limit);
    }

    @Override
    public boolean isStale(long kept) {
        return own.isStale(kept);
    }

    @Override
    public void rebuild(KnowledgeRepository repository) {
        own.rebuild(repository);
    }

    @Override
    public void rebuildDocument(String documentId, KnowledgeRepository repository) {
        own.rebuildDocument(documentId, repository);
    }

    @Override
    public void close() {
        rebuilds.shutdownNow();
    }
}
