package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Claims in a map by (app, user, key), one lock deciding a race. */
public final class InMemoryIdempotencyKeyRepository implements IdempotencyKeyRepository {

    private final Map<List<String>, KeyedRun> claims = new HashMap<>();

    @Override
    public synchronized Optional<KeyedRun> claim(KeyedRun claim, long notBefore) {
        Optional<KeyedRun> earlier = find(claim.appId(), claim.user(), claim.key(), notBefore);
        if (earlier.isEmpty()) {
            claims.put(List.of(claim.appId(), claim.user(), claim.key()), claim);
        }
        return earlier;
    }

    @Override
    public synchronized Optional<KeyedRun> find(String appId, String user, String key, long notBefore) {
        return Optional.ofNullable(claims.get(List.of(appId, user, key)))
                .filter(claim -> claim.createdAt() >= notBefore);
    }

    @Override
    public synchronized boolean release(KeyedRun claim) {
        return claims.remove(List.of(claim.appId(), claim.user(), claim.key()), claim);
    }

    @Override
    public synchronized int prune(long createdBefore) {
        int before = claims.size();
        claims.values().removeIf(claim -> claim.createdAt() < createdBefore);
        return before - claims.size();
    }
}
