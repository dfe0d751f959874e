package dev.hexaflow.adapters.persistence;

import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps each data set in memory after its first read, as one immutable list, until it is replaced through
 * this repository. Data sets change only on import, while every feed call reads one, so this turns a query of
 * hundreds of rows per call into a map lookup; and since the same list comes back until the next import,
 * renderers can cache what they made of it by its identity. Only valid while this process is the only writer,
 * which the data directory lock guarantees for the embedded database.
 */
public final class InMemoryCachingCampusDataRepository implements CampusDataRepository {

    private final CampusDataRepository store;
    private final Map<FeedMethod, List<CampusRecord>> cache = new ConcurrentHashMap<>();

    public InMemoryCachingCampusDataRepository(CampusDataRepository store) {
        this.store = store;
    }

    @Override
    public List<CampusRecord> findAll(FeedMethod dataSet) {
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
    }

    @Override
    public int count(FeedMethod dataSet) {
        return findAll(dataSet).size();
    }
}
