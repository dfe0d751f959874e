package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** App keys by their hash, as the table keeps them: a hash names one key. */
public final class InMemoryAppKeyRepository implements AppKeyRepository {

    private final ConcurrentMap<SecretHash, AppKey> keys = new ConcurrentHashMap<>();
    private final ConcurrentMap<SecretHash, Long> lastUsed = new ConcurrentHashMap<>();

    @Override
    public void add(AppKey key) {
        if (keys.putIfAbsent(key.hash(), key) != null) {
            throw new IllegalStateException("an app key with this hash exists already");
        }
    }

    @Override
    public Optional<AppKey> find(SecretHash hash) {
        return Optional.ofNullable(keys.get(hash));
    }

    @Override
    public List<ListedKey> list(String appId) {
        return keys.values().stream().filter(key -> key.appId().equals(appId))
                .sorted(Comparator.comparingLong(AppKey::createdAt).thenComparing(key -> key.hash().hex()))
                .map(key -> new ListedKey(key, lastUsed.get(key.hash()))).toList();
    }

    @Override
    public void used(SecretHash hash, long at) {
        if (keys.containsKey(hash)) {
            lastUsed.merge(hash, at, Math::max);
        }
    }

    @Override
    public boolean delete(String appId, SecretHash hash) {
        AppKey key = keys.get(hash);
        return key != null && key.appId().equals(appId) && keys.remove(hash, key);
    }
}
