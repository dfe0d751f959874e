package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import java.sql.SQLException;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * Claims in {@code idempotency_key}, whose primary key (app, user, key) decides a race: the second insert fails
 * on it (H2 makes it wait for the first transaction's end), and reads the first one's claim instead. A claim is a
 * transaction of its own, outside the run writer's batches: its answer cannot wait for a group commit to decide.
 */
public final class JdbiIdempotencyKeyRepository implements IdempotencyKeyRepository {

    /** SQL's state for a unique constraint violated. */
    private static final String UNIQUE_VIOLATION = "23505";
    /** How often a claim tries again when its rival's claim vanished (rolled back, or pruned) in between. */
    private static final int TRIES = 3;

    private final Jdbi jdbi;

    public JdbiIdempotencyKeyRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public Optional<KeyedRun> claim(KeyedRun claim, long notBefore) {
        for (int tries = 1; ; tries++) {
            try {
                jdbi.useTransaction(handle -> {
                    handle.createUpdate("DELETE FROM idempotency_key WHERE app_id = :app AND end_user = :user AND "
                            + "idem_key = :key AND created_at < :not_before").bind("app", claim.appId())
                            .bind("user", claim.user()).bind("key", claim.key()).bind("not_before", notBefore)
                            .execute();
                    handle.createUpdate("INSERT INTO idempotency_key (app_id, end_user, idem_key, fingerprint, "
                            + "run_id, task_id, created_at) VALUES (:app, :user, :key, :fingerprint, :run, :task, "
                            + ":at)").bind("app", claim.appId()).bind("user", claim.user()).bind("key", claim.key())
                            .bind("fingerprint", claim.fingerprint()).bind("run", claim.runId())
                            .bind("task", claim.taskId()).bind("at", claim.createdAt()).execute();
                });
                return Optional.empty();
            } catch (UnableToExecuteStatementException e) {
                if (!(e.getCause() instanceof SQLException sql) || !UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                    throw e;
                }
                Optional<KeyedRun> winner = find(claim.appId(), claim.user(), claim.key(), notBefore);
                if (winner.isPresent() || tries == TRIES) {
                    return winner.or(() -> {
                        throw new IllegalStateException("the key " + claim.key() + " is claimed and not readable");
                    });
                }
            }
        }
    }

    @Override
    public Optional<KeyedRun> find(String appId, String user, String key, long notBefore) {
        return jdbi.withHandle(handle -> find(handle, appId, user, key, notBefore));
    }

    private static Optional<KeyedRun> find(Handle handle, String appId, String user, String key, long notBefore) {
        return handle.createQuery("SELECT * FROM idempotency_key WHERE app_id = :app AND end_user = :user AND "
                + "idem_key = :key AND created_at >= :not_before").bind("app", appId).bind("user", user)
                .bind("key", key).bind("not_before", notBefore)
                .map((rs, ctx) -> new KeyedRun(rs.getString("app_id"), rs.getString("end_user"),
                        rs.getString("idem_key"), rs.getString("fingerprint"), rs.getString("run_id"),
                        rs.getString("task_id"), rs.getLong("created_at"))).findOne();
    }

    @Override
    public boolean release(KeyedRun claim) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM idempotency_key WHERE app_id = :app AND "
                + "end_user = :user AND idem_key = :key AND run_id = :run").bind("app", claim.appId())
                .bind("user", claim.user()).bind("key", claim.key()).bind("run", claim.runId()).execute()) == 1;
    }

    @Override
    public int prune(long createdBefore) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM idempotency_key WHERE created_at < "
                + ":before").bind("before", createdBefore).execute());
    }
}
