package dev.hexaflow.adapters.persistence.jdbi;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Rows a request reads on every call (its key, app, published version, end user), kept in memory by the
 * repository that writes them. Only this process writes the database (the data directory's lock keeps any other
 * out), so a repository that updates its cache after each write it makes is never stale. Only rows that exist
 * are kept, so that unknown keys cannot fill it; past {@code capacity} entries it starts again empty.
 */
final class ReadCache<K, V> {

    private final Map<K, V> entries = new ConcurrentHashMap<>();
    private final int capacity;

    ReadCache(int capacity) {
        this.capacity = capacity;
    }

    Optional<V> get(K key, Function<K, Optional<V>> read) {
        V cached = entries.get(key);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<V> found = read.apply(key);
        found.ifPresent(value -> put(key, value));
        return found;
    }

    void put(K key, V value) {
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(key, value);
    }

    void remove(K key) {
        entries.remove(key);
    }
}
