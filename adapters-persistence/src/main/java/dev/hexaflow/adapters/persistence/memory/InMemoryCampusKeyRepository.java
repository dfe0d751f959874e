package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Campus keys in a map: for embedding without a database, and as the reference the Jdbi adapter is tested against. */
public final class InMemoryCampusKeyRepository implements CampusKeyRepository {

    private final ConcurrentMap<SecretHash, CampusKey> keys = new ConcurrentHashMap<>();

    @Override
    public Optional<CampusKey> find(SecretHash hash) {
        return Optional.ofNullable(keys.get(hash));
    }

    @Override
    public void add(CampusKey key) {
        if (keys.putIfAbsent(key.hash(), key) != null) {
            throw new IllegalStateException("campus key exists already: " + key.hash());
        }
    }

    @Override
    public long recordUse(SecretHash hash) {
        CampusKey used = keys.computeIfPresent(hash,
                (h, key) -> new CampusKey(h, key.requests() + 1, key.banned()));
        if (used == null) {
            throw new IllegalStateException("no campus key " + hash);
        }
        return used.requests();
    }

    @Override
    public boolean ban(SecretHash hash) {
        return keys.computeIfPresent(hash, (h, key) -> key.ban()) != null;
    }
}
