package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.memory.InMemoryInstanceSignals;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.common.port.out.InstanceSignals;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps each data set in memory after its first read, as one immutable list, until it is replaced through
 * this repository. Data sets change only on import, while every feed call reads one, so this turns a query of
 * hundreds of rows per call into a map lookup; and since the same list comes back until the next import,
 * renderers can cache what they made of it by its identity. Where other instances share the store, an import
 * tells them, and they read the data set afresh; while this instance may miss what it is told, it reads the store
 * on every call.
 */
public final class InMemoryCachingCampusDataRepository implements CampusDataRepository {

    private final CampusDataRepository store;
    private final Map<FeedMethod, List<CampusRecord>> cache = new ConcurrentHashMap<>();
    private final InstanceSignals instances;

    public InMemoryCachingCampusDataRepository(CampusDataRepository store) {
        this(store, InMemoryInstanceSignals.ALONE);
    }

    public InMemoryCachingCampusDataRepository(CampusDataRepository store, InstanceSignals instances) {
        this.store = store;
        this.instances = instances;
        instances.hear(TOPIC, dataSet -> forget());
        instances.onMissed(this::forget);
    }

    private static final String TOPIC = "campus_data";

    /** Forgets every data set, under the lock a first read fills the cache in, so no read under way puts it back. */
    private synchronized void forget() {
        cache.clear();
    }

    @Override
    public List<CampusRecord> findAll(FeedMethod dataSet) {
        if (!instances.hearing()) {
            return List.copyOf(store.findAll(dataSet));
        }
        List<CampusRecord> cached = cache.get(dataSet);
        if (cached != null) {
            return cached;
        }
        synchronized (this) {
            return cache.computeIfAbsent(dataSet, set -> List.copyOf(store.findAll(set)));
        }
    }

    @Override
    public synchronized void replaceAll(FeedMethod dataSet, List<? extends CampusRecord> records) {
        cache.remove(dataSet);
        store.replaceAll(dataSet, records);
        cache.put(dataSet, List.copyOf(records));
        instances.tell(TOPIC, dataSet.name());
    }

    @Override
    public int count(FeedMethod dataSet) {
        return findAll(dataSet).size();
    }
}
