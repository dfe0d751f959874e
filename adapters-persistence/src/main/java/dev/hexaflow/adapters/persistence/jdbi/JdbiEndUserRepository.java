package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.domain.app.EndUser;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.jdbi.v3.core.Jdbi;

/**
 * End users in {@code end_user}, one per (app, session id); a racing second insert takes the first one's row.
 * New end users are written by a {@link GroupCommitWriter}, so that a thousand first requests at once cost a few
 * commits, not a thousand; end users met lately are kept in memory as well.
 */
public final class JdbiEndUserRepository implements EndUserRepository, AutoCloseable {

    private static final String INSERT = "INSERT INTO end_user (id, app_id, session_id, created_at) "
            + "VALUES (?, ?, ?, ?)";

    private final Jdbi jdbi;
    private final ReadCache<List<String>, EndUser> cache;
    private final GroupCommitWriter<EndUser> writer;

    public JdbiEndUserRepository(Jdbi jdbi) {
        this(jdbi, WriteGate.OPEN);
    }

    /** @param gate refuses writes at once while the store cannot keep them */
    public JdbiEndUserRepository(Jdbi jdbi, WriteGate gate) {
        this.jdbi = jdbi;
        this.cache = new ReadCache<>(jdbi, "end_user", 100_000);
        this.writer = new GroupCommitWriter<>(jdbi, gate, "hexaflow-user-writer", JdbiEndUserRepository::insert,
                user -> 1);
    }

    private static void insert(GroupCommitWriter.Statements statements, List<EndUser> users) throws SQLException {
        PreparedStatement insert = statements.prepared(INSERT);
        for (EndUser user : users) {
            insert.setString(1, user.id());
            insert.setString(2, user.appId());
            insert.setString(3, user.sessionId());
            insert.setLong(4, user.createdAt());
            insert.addBatch();
        }
        insert.executeBatch();
    }

    /** Writes what is queued, then takes no more. */
    @Override
    public void close() {
        writer.close();
    }

    @Override
    public EndUser findOrAdd(EndUser candidate) {
        Optional<EndUser> found = find(candidate.appId(), candidate.sessionId());
        if (found.isPresent()) {
            return found.get();
        }
        try {
            writer.submit(candidate).join();
            cache.keep(List.of(candidate.appId(), candidate.sessionId()), candidate);
            return candidate;
        } catch (CompletionException duplicate) {
            return find(candidate.appId(), candidate.sessionId()).orElseThrow(() -> duplicate);
        }
    }

    @Override
    public Optional<EndUser> find(String appId, String sessionId) {
        return cache.get(List.of(appId, sessionId), key -> read(appId, sessionId));
    }

    @Override
    public Optional<EndUser> findById(String appId, String id) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM end_user WHERE id = :id AND app_id = "
                + ":app_id").bind("id", id).bind("app_id", appId).map((rs, ctx) -> endUser(rs)).findOne());
    }

    private static EndUser endUser(ResultSet rs) throws SQLException {
        return new EndUser(rs.getString("id"), rs.getString("app_id"), rs.getString("session_id"),
                rs.getLong("created_at"));
    }

    private Optional<EndUser> read(String appId, String sessionId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM end_user WHERE app_id = :app_id AND "
                + "session_id = :session_id").bind("app_id", appId).bind("session_id", sessionId)
                .map((rs, ctx) -> endUser(rs)).findOne());
    }
}
