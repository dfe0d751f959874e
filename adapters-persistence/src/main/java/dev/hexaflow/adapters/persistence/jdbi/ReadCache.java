package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.common.port.out.InstanceSignals;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;

/**
 * Rows a request reads on every call (its key, app, published version, end user), kept in memory by the
 * repository that writes them. A repository that changes such a row says so ({@link #changed}, {@link #removed}):
 * this cache is updated, and every other instance on the same store (PostgreSQL; H2 has one) is told through the
 * {@link InstanceSignals} of the Jdbi ({@link Signals}) and forgets what it kept under this cache's name. While an
 * instance may miss what it is told, it reads the store on every call. Only rows that exist are kept, so that
 * unknown keys cannot fill it; past {@code capacity} entries it starts again empty.
 */
final class ReadCache<K, V> {

    private final Map<K, V> entries = new ConcurrentHashMap<>();
    private final int capacity;
    private final String topic;
    private final InstanceSignals signals;
    /**
     * Counts the changes made or told while reads go on: a row read before a change, and kept after it, would be
     * kept stale for good, so a read is kept only if nothing changed while it went on (checked again once kept).
     */
    private final AtomicLong forgotten = new AtomicLong();

    /** @param name names what this cache holds, the same in every instance (the table or the lookup) */
    ReadCache(Jdbi jdbi, String name, int capacity) {
        this.capacity = capacity;
        this.topic = "cache:" + name;
        this.signals = Signals.of(jdbi);
        signals.hear(topic, message -> forgetAll());
        signals.onMissed(this::forgetAll);
    }

    Optional<V> get(K key, Function<K, Optional<V>> read) {
        if (!signals.hearing()) {
            return read.apply(key);
        }
        V cached = entries.get(key);
        if (cached != null) {
            return Optional.of(cached);
        }
        long before = forgotten.get();
        Optional<V> found = read.apply(key);
        if (found.isPresent() && forgotten.get() == before) {
            keep(key, found.get());
            if (forgotten.get() != before) {
                // Forgotten between the check and the keep: what was read may be older than the change.
                entries.remove(key, found.get());
            }
        }
        return found;
    }

    /** Keeps a row this instance has just added: no other instance can hold an older copy of a new row. */
    void keep(K key, V value) {
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(key, value);
    }

    /** Keeps a row this instance has just changed, and tells the other instances to read it afresh. */
    void changed(K key, V value) {
        forgotten.incrementAndGet(); // a read of the row as it was, under way here, is not kept
        keep(key, value);
        signals.tell(topic, "");
    }

    /** Forgets a row this instance has just changed or deleted, here and in the other instances. */
    void removed(K key) {
        forgotten.incrementAndGet();
        entries.remove(key);
        signals.tell(topic, "");
    }

    private void forgetAll() {
        forgotten.incrementAndGet();
        entries.clear();
    }
}
