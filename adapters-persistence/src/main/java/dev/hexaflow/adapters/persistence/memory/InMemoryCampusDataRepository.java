package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Campus data sets held as immutable lists, swapped whole on replace. */
public final class InMemoryCampusDataRepository implements CampusDataRepository {

    private final Map<FeedMethod, List<CampusRecord>> dataSets = new EnumMap<>(FeedMethod.class);

    @Override
    public synchronized List<CampusRecord> findAll(FeedMethod dataSet) {
        return dataSets.getOrDefault(dataSet, List.of());
    }

    @Override
    public synchronized void replaceAll(FeedMethod dataSet, List<? extends CampusRecord> records) {
        dataSets.put(dataSet, List.copyOf(records));
    }

    @Override
    public synchronized int count(FeedMethod dataSet) {
        return findAll(dataSet).size();
    }
}
