package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.domain.knowledge.DatasetKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Dataset keys by their hash, as the table keeps them: a hash names one key. */
public final class InMemoryDatasetKeyRepository implements DatasetKeyRepository {

    private final ConcurrentMap<SecretHash, DatasetKey> keys = new ConcurrentHashMap<>();

    @Override
    public void add(DatasetKey key) {
        if (keys.putIfAbsent(key.hash(), key) != null) {
            throw new IllegalStateException("a dataset key with this hash exists already");
        }
    }

    @Override
    public Optional<DatasetKey> find(SecretHash hash) {
        return Optional.ofNullable(keys.get(hash));
    }

    @Override
    public boolean delete(SecretHash hash) {
        return keys.remove(hash) != null;
    }
}
