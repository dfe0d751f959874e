package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.domain.workflow.FormStatus;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * Paused runs in {@code run_pause} and their forms in {@code human_input_form}, beside the runs of
 * {@link JdbiRunRepository}, whose writer keeps the pauses themselves. Each claim is one conditional update (of a
 * form from {@code waiting}, of a run from {@code paused}) in its own transaction, so that of two at once, on one
 * instance or two, the second finds the row changed and loses. A pause's writes are committed before their future
 * completes, so a claim made after it sees them. A run that changes status moves in {@code run_count} with it.
 */
public final class JdbiPauseRepository implements PauseRepository {

    private static final String PAUSED = RunStatus.PAUSED.wireName();
    private static final String RUNNING = RunStatus.RUNNING.wireName();

    /** A waiting form of a run still paused: a form left waiting by a run that ended waits for nothing. */
    private static final String WAITING_OF_PAUSED = "SELECT f.* FROM human_input_form f JOIN workflow_run r ON r.id = "
            + "f.run_id WHERE f.status = 'waiting' AND r.status = 'paused'";

    /**
     * Of the forms waiting on a called run, those whose called run moved on: it ended, or it is paused again past
     * the form (a resumption applied its answer).
     */
    private static final String CALLED_RUN_MOVED = " AND f.forwards_to_run_id IS NOT NULL AND EXISTS (SELECT 1 FROM "
            + "workflow_run k WHERE k.id = f.forwards_to_run_id AND (k.status NOT IN ('running', 'paused') OR "
            + "(k.status = 'paused' AND EXISTS (SELECT 1 FROM human_input_form g WHERE g.id = f.forwards_to_form_id "
            + "AND g.applied))))";

    private final Jdbi jdbi;
    /** Adds to an app's count of runs in a status: the amount, the app, the status. */
    private final String addToCount;

    public JdbiPauseRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.addToCount = SqlDialect.of(jdbi).addTo("run_count", "n", "app_id, status");
    }

    @Override
    public Optional<KeptForm> formByToken(String token) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM human_input_form WHERE token = :token")
                .bind("token", token).map((rs, ctx) -> form(rs)).findOne());
    }

    @Override
    public List<KeptForm> forms(String runId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM human_input_form WHERE run_id = :run "
                + "ORDER BY created_at, id").bind("run", runId).map((rs, ctx) -> form(rs)).list());
    }

    @Override
    public boolean answer(String formId, FormStatus status, String actionId, Map<String, Object> inputs,
            long answeredAt) {
        if (status == FormStatus.WAITING) {
            throw new IllegalArgumentException("an answer takes a form out of waiting");
        }
        return jdbi.withHandle(handle -> handle.createUpdate("UPDATE human_input_form SET status = :status, "
                + "action_id = :action, submitted_data = :data, answered_at = :at WHERE id = :id AND status = "
                + "'waiting'").bind("status", status.wireName()).bind("action", actionId)
                .bind("data", JsonColumns.write(inputs)).bind("at", answeredAt).bind("id", formId).execute()) == 1;
    }

    @Override
    public Optional<PausedRun> takeForResume(String runId) {
        return jdbi.inTransaction(handle -> {
            if (!move(handle, runId, PAUSED, RUNNING, "")) {
                return Optional.empty();
            }
            String snapshot = handle.createQuery("SELECT snapshot FROM run_pause WHERE run_id = :run")
                    .bind("run", runId).mapTo(String.class).findOne()
                    // Thrown, the transaction rolls back: the run stays paused, as it was found.
                    .orElseThrow(() -> new IllegalStateException("paused run " + runId + " kept no paused run"));
            return Optional.of(PauseColumns.pausedRun(snapshot));
        });
    }

    @Override
    public void putBack(String runId) {
        jdbi.useTransaction(handle -> move(handle, runId, RUNNING, PAUSED, ""));
    }

    @Override
    public void applied(List<String> formIds) {
        if (formIds.isEmpty()) {
            return;
        }
        jdbi.useHandle(handle -> handle.createUpdate("UPDATE human_input_form SET applied = TRUE WHERE id IN "
                + "(<ids>)").bindList("ids", formIds).execute());
    }

    @Override
    public boolean stop(String runId, String error, long finishedAt) {
        Map<String, Object> end = new HashMap<>();
        end.put("error", error);
        end.put("at", finishedAt);
        return jdbi.inTransaction(handle -> {
            if (!move(handle, runId, PAUSED, RunStatus.STOPPED.wireName(), ", error = :error, finished_at = :at",
                    end)) {
                return false;
            }
            handle.createUpdate("UPDATE human_input_form SET status = 'expired' WHERE run_id = :run AND status = "
                    + "'waiting'").bind("run", runId).execute();
            handle.createUpdate("DELETE FROM run_pause WHERE run_id = :run").bind("run", runId).execute();
            return true;
        });
    }

    @Override
    public List<KeptForm> expired(long now, int limit) {
        return jdbi.withHandle(handle -> handle.createQuery(WAITING_OF_PAUSED + " AND f.expiration_time <= :now "
                + "AND f.forwards_to_run_id IS NULL ORDER BY f.expiration_time, f.id LIMIT :limit").bind("now", now).bind("limit", limit)
                .map((rs, ctx) -> form(rs)).list());
    }

    @Override
    public List<KeptForm> waitingOnMovedRuns(String calledRunId, int limit) {
        return jdbi.withHandle(handle -> {
            Query query = handle.createQuery(WAITING_OF_PAUSED + CALLED_RUN_MOVED + (calledRunId == null ? ""
                    : " AND f.forwards_to_run_id = :called") + " ORDER BY f.created_at, f.id LIMIT :limit")
                    .bind("limit", limit);
            if (calledRunId != null) {
                query.bind("called", calledRunId);
            }
            return query.map((rs, ctx) -> form(rs)).list();
        });
    }

    @Override
    public List<KeptForm> waiting(String appId, int limit) {
        return jdbi.withHandle(handle -> {
            Query query = handle.createQuery(WAITING_OF_PAUSED + (appId == null ? "" : " AND f.app_id = :app")
                    + " ORDER BY f.created_at DESC, f.id DESC LIMIT :limit").bind("limit", limit);
            if (appId != null) {
                query.bind("app", appId);
            }
            return query.map((rs, ctx) -> form(rs)).list();
        });
    }

    private boolean move(Handle handle, String runId, String from, String to, String alsoSet) {
        return move(handle, runId, from, to, alsoSet, Map.of());
    }

    /**
     * Moves the run from one status to another if it is in the first, and its app's counts with it: false when it
     * was not (another caller moved it first, or it never was).
     */
    private boolean move(Handle handle, String runId, String from, String to, String alsoSet,
            Map<String, Object> binds) {
        int moved = handle.createUpdate("UPDATE workflow_run SET status = :to" + alsoSet + " WHERE id = :id AND "
                + "status = :from").bind("to", to).bind("id", runId).bind("from", from).bindMap(binds).execute();
        if (moved == 0) {
            return false;
        }
        String app = handle.createQuery("SELECT app_id FROM workflow_run WHERE id = :id").bind("id", runId)
                .mapTo(String.class).one();
        // In status order, as the writer and the sweeps change counts: two transactions never lock them crosswise.
        boolean fromFirst = from.compareTo(to) < 0;
        addToCount(handle, app, fromFirst ? from : to, fromFirst ? -1 : 1);
        addToCount(handle, app, fromFirst ? to : from, fromFirst ? 1 : -1);
        return true;
    }

    private void addToCount(Handle handle, String app, String status, long amount) {
        handle.createUpdate(addToCount).bind(0, amount).bind(1, app).bind(2, status).execute();
    }

    private static KeptForm form(ResultSet rs) throws SQLException {
        return new KeptForm(PauseColumns.form(rs.getString("definition")), rs.getString("app_id"),
                rs.getString("end_user_id"), FormStatus.fromWireName(rs.getString("status")),
                rs.getString("action_id"), JsonColumns.readMap(rs.getString("submitted_data")),
                rs.getLong("created_at"), rs.getObject("answered_at", Long.class), rs.getBoolean("applied"));
    }
}
