package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.app.port.out.EndUserRepository;
import dev.hexaflow.domain.app.EndUser;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** End users in {@code end_user}, one per (app, session id); a racing second insert takes the first one's row.
 * End users met lately are kept in memory as well. */
public final class JdbiEndUserRepository implements EndUserRepository {

    private final Jdbi jdbi;
    private final ReadCache<List<String>, EndUser> cache = new ReadCache<>(100_000);

    public JdbiEndUserRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public EndUser findOrAdd(EndUser candidate) {
        Optional<EndUser> found = find(candidate.appId(), candidate.sessionId());
        if (found.isPresent()) {
            return found.get();
        }
        try {
            jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO end_user (id, app_id, session_id, created_at) "
                    + "VALUES (:id, :app_id, :session_id, :created_at)").bind("id", candidate.id())
                    .bind("app_id", candidate.appId()).bind("session_id", candidate.sessionId())
                    .bind("created_at", candidate.createdAt()).execute());
            cache.put(List.of(candidate.appId(), candidate.sessionId()), candidate);
            return candidate;
        } catch (RuntimeException duplicate) {
            return find(candidate.appId(), candidate.sessionId()).orElseThrow(() -> duplicate);
        }
    }

    @Override
    public Optional<EndUser> find(String appId, String sessionId) {
        return cache.get(List.of(appId, sessionId), key -> read(appId, sessionId));
    }

    private Optional<EndUser> read(String appId, String sessionId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM end_user WHERE app_id = :app_id AND "
                + "session_id = :session_id").bind("app_id", appId).bind("session_id", sessionId)
                .map((rs, ctx) -> new EndUser(rs.getString("id"), rs.getString("app_id"), rs.getString("session_id"),
                        rs.getLong("created_at"))).findOne());
    }
}
