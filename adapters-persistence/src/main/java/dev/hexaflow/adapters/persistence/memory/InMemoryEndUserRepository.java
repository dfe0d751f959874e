package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.domain.app.EndUser;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * End users by (app, session id). A first use is made under a lock, so that racing first uses agree on the one
 * made first; later uses read the map without it.
 */
public final class InMemoryEndUserRepository implements EndUserRepository {

    private final ConcurrentMap<List<String>, EndUser> bySession = new ConcurrentHashMap<>();
    private final Set<String> ids = new HashSet<>();
    private final ConcurrentMap<String, EndUser> byId = new ConcurrentHashMap<>();

    @Override
    public EndUser findOrAdd(EndUser candidate) {
        List<String> session = List.of(candidate.appId(), candidate.sessionId());
        EndUser found = bySession.get(session);
        if (found != null) {
            return found;
        }
        synchronized (ids) {
            found = bySession.get(session);
            if (found != null) {
                return found;
            }
            if (!ids.add(candidate.id())) {
                throw new IllegalStateException("an end user with id " + candidate.id() + " exists already");
            }
            byId.put(candidate.id(), candidate);
            bySession.put(session, candidate);
            return candidate;
        }
    }

    @Override
    public Optional<EndUser> find(String appId, String sessionId) {
        return Optional.ofNullable(bySession.get(List.of(appId, sessionId)));
    }

    @Override
    public Optional<EndUser> findById(String appId, String id) {
        return Optional.ofNullable(byId.get(id)).filter(user -> user.appId().equals(appId));
    }
}
