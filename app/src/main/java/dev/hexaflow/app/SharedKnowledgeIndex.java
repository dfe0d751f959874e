package dev.hexaflow.app;

import dev.hexaflow.application.common.port.out.InstanceSignals;
import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The knowledge index of an instance that shares its store: each instance holds an index of its own (in memory),
 * tells the others when it changed its own, and rebuilds its own from the store when told of a change elsewhere
 * (or when it may have missed one). Changes told close together are rebuilt once, {@link #SETTLE} after the first,
 * by which time the store holds what the other instance wrote with its change.
 */
final class SharedKnowledgeIndex implements KnowledgeIndex, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SharedKnowledgeIndex.class);
    private static final String TOPIC = "knowledge";
    static final long SETTLE = 100;

    private final KnowledgeIndex own;
    private final KnowledgeRepository repository;
    private final InstanceSignals instances;
    private final AtomicBoolean rebuildDue = new AtomicBoolean();
    private final ScheduledExecutorService rebuilds = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "hexaflow-knowledge-rebuild");
        thread.setDaemon(true);
        return thread;
    });

    SharedKnowledgeIndex(KnowledgeIndex own, KnowledgeRepository repository, InstanceSignals instances) {
        this.own = own;
        this.repository = repository;
        this.instances = instances;
        instances.hear(TOPIC, message -> rebuildSoon());
        instances.onMissed(this::rebuildSoon);
    }

    private void rebuildSoon() {
        if (rebuildDue.compareAndSet(false, true)) {
            rebuilds.schedule(() -> {
                rebuildDue.set(false);
                try {
                    own.rebuild(repository);
                } catch (RuntimeException e) {
                    LOG.warn("Rebuilding the knowledge index after another instance's change failed: {}",
                            e.toString());
                }
            }, SETTLE, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void add(Collection<StoredChunk> chunks) {
        changed(() -> own.add(chunks));
    }

    @Override
    public void remove(String chunkId) {
        changed(() -> own.remove(chunkId));
    }

    @Override
    public void removeDocument(String documentId) {
        changed(() -> own.removeDocument(documentId));
    }

    @Override
    public void removeBase(String baseId) {
        changed(() -> own.removeBase(baseId));
    }

    /** Changes this instance's index, then tells the others to rebuild theirs. */
    private void changed(Runnable change) {
        change.run();
        instances.tell(TOPIC, "");
    }

    @Override
    public List<Hit> byWords(String baseId, String query, Set<String> documentIds, int limit) {
        return own.byWords(baseId, query, documentIds, limit);
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
    public void close() {
        rebuilds.shutdownNow();
    }
}
