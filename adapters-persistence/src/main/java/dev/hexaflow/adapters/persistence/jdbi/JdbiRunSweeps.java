package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.RunRepository.Pruning;
import dev.hexaflow.domain.workflow.RunStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The run store's sweeps over many runs at once: failing the runs left running (by a server that stopped, or an
 * instance whose lease ran out), and pruning old ended runs. Each keeps {@code run_count} in step with the runs.
 * A paused run is neither: it holds no thread that could have died with its instance, and it waits for its forms.
 */
final class JdbiRunSweeps {

    private static final String RUNNING = RunStatus.RUNNING.wireName();
    private static final String PAUSED = RunStatus.PAUSED.wireName();

    private final Jdbi jdbi;
    /** Adds to an app's count of runs in a status: the amount, the app, the status. */
    private final String addToCount;

    JdbiRunSweeps(Jdbi jdbi, SqlDialect dialect) {
        this.jdbi = jdbi;
        this.addToCount = dialect.addTo("run_count", "n", "app_id, status");
    }

    int failUnfinished(String error, long finishedAt, java.util.Set<String> spared) {
        if (spared.isEmpty()) {
            return failRunning(error, finishedAt, "", Map.of());
        }
        // A bound list of ids, as H2 and PostgreSQL both take an array: one parameter however many runs go on.
        return failRunning(error, finishedAt, " AND NOT (id = ANY(:spared))",
                Map.of("spared", spared.toArray(new String[0])));
    }

    /**
     * As {@link #failUnfinished} for the runs of no instance whose lease was renewed at {@code leaseCutoff} or
     * after (Unix milliseconds): an instance that died, or a server from before runs named their instance. Two
     * instances that fail them at once fail each run once: the second finds it ended.
     */
    int failRunsOfLapsedInstances(String error, long finishedAt, long leaseCutoff) {
        return failRunning(error, finishedAt, " AND (instance_id IS NULL OR instance_id NOT IN (SELECT id FROM "
                + "instance_lease WHERE renewed_at >= :cutoff))", Map.of("cutoff", leaseCutoff));
    }

    /** Fails the running runs (and their running node executions) that {@code which} narrows, app by app. */
    private int failRunning(String error, long finishedAt, String which, Map<String, Object> binds) {
        return jdbi.inTransaction(handle -> {
            int failed = 0;
            List<String> apps = handle.createQuery("SELECT app_id FROM run_count WHERE status = 'running' AND n > 0")
                    .mapTo(String.class).list();
            for (String app : apps) {
                handle.createUpdate("UPDATE node_execution SET status = 'failed', error = :error, finished_at = :at "
                        + "WHERE status = 'running' AND run_id IN (SELECT id FROM workflow_run WHERE app_id = :app "
                        + "AND status = 'running'" + which + ")").bind("error", error).bind("at", finishedAt)
                        .bind("app", app).bindMap(binds).execute();
                int runs = handle.createUpdate("UPDATE workflow_run SET status = 'failed', error = :error, "
                        + "finished_at = :at WHERE app_id = :app AND status = 'running'" + which)
                        .bind("error", error).bind("at", finishedAt).bind("app", app).bindMap(binds).execute();
                if (runs == 0) {
                    continue;
                }
                // The counts in the writer's order ('failed' before 'running'), so that the two never deadlock.
                handle.createUpdate(addToCount).bind(0, runs).bind(1, app).bind(2, RunStatus.FAILED.wireName())
                        .execute();
                handle.createUpdate("UPDATE run_count SET n = n - :runs WHERE app_id = :app AND status = 'running'")
                        .bind("runs", runs).bind("app", app).execute();
                failed += runs;
            }
            return failed;
        });
    }

    /**
     * App by app, through the index on (app, created_at): the oldest ended runs before the age bound, then
     * those older than the app's newest {@code keepPerApp}; one transaction per batch, so that the run writer
     * waits on a prune for one batch at most. The index is (app_id, created_at DESC, seq DESC): oldest first is
     * every column of it reversed ({@code app_id DESC, created_at, seq}), which H2 reads backwards and stops after
     * the batch; {@code app_id, created_at, seq} would sort all the app's runs for every batch.
     */
    int prune(Pruning pruning) {
        return jdbi.inTransaction(handle -> {
            Map<String, String[]> victims = new LinkedHashMap<>();
            for (String app : handle.createQuery("SELECT app_id FROM run_count GROUP BY app_id HAVING SUM(n) > 0")
                    .mapTo(String.class).list()) {
                if (pruning.createdBefore() != null) {
                    handle.createQuery("SELECT id, status FROM workflow_run WHERE app_id = :app AND created_at < "
                            + ":before AND status NOT IN ('running', 'paused') ORDER BY app_id DESC, created_at, seq "
                            + "LIMIT :batch")
                            .bind("app", app).bind("before", pruning.createdBefore())
                            .bind("batch", pruning.batch() - victims.size())
                            .map((rs, ctx) -> new String[] {rs.getString("id"), app, rs.getString("status")})
                            .forEach(run -> victims.put(run[0], run));
                }
                if (pruning.keepPerApp() != null && victims.size() < pruning.batch()) {
                    // The app's runs past its newest keepPerApp are its oldest (total - keepPerApp), counted from
                    // run_count: read from the old end of the index, never skipped over from the new end. Running
                    // and paused ones among them stay, and are looked past, but never past the newest keepPerApp.
                    Map<String, Long> counts = new LinkedHashMap<>();
                    handle.createQuery("SELECT status, n FROM run_count WHERE app_id = :app").bind("app", app)
                            .map((rs, ctx) -> counts.put(rs.getString("status"), rs.getLong("n"))).list();
                    long excess = counts.values().stream().mapToLong(Long::longValue).sum() - pruning.keepPerApp();
                    int room = pruning.batch() - victims.size();
                    // The age bound's victims of this app are the first ended runs of the same read: read past them.
                    long chosen = victims.values().stream().filter(run -> run[1].equals(app)).count();
                    long read = Math.min(excess, room + chosen + counts.getOrDefault(RUNNING, 0L)
                            + counts.getOrDefault(PAUSED, 0L));
                    if (read > 0) {
                        handle.createQuery("SELECT id, status FROM workflow_run WHERE app_id = :app ORDER BY "
                                + "app_id DESC, created_at, seq LIMIT :read").bind("app", app).bind("read", read)
                                .map((rs, ctx) -> new String[] {rs.getString("id"), app, rs.getString("status")})
                                .filter(run -> !RUNNING.equals(run[2]) && !PAUSED.equals(run[2])
                                        && !victims.containsKey(run[0])).stream()
                                .limit(room)
                                .forEach(run -> victims.putIfAbsent(run[0], run));
                    }
                }
                if (victims.size() >= pruning.batch()) {
                    break;
                }
            }
            if (victims.isEmpty()) {
                return 0;
            }
            delete(handle, victims);
            return victims.size();
        });
    }

    /**
     * Deletes the runs (id to id, app, status) with all that is kept of them, and takes them from their counts:
     * their forms too, which outlive their run only until it is pruned.
     */
    private static void delete(Handle handle, Map<String, String[]> victims) {
        List<String> ids = List.copyOf(victims.keySet());
        for (String table : List.of("node_execution", "run_event", "human_input_form", "run_pause")) {
            handle.createUpdate("DELETE FROM " + table + " WHERE run_id IN (<ids>)").bindList("ids", ids).execute();
        }
        handle.createUpdate("DELETE FROM workflow_run WHERE id IN (<ids>)").bindList("ids", ids).execute();
        Map<String, Integer> gone = new java.util.TreeMap<>();
        for (String[] run : victims.values()) {
            gone.merge(run[1] + "\n" + run[2], 1, Integer::sum);
        }
        gone.forEach((appAndStatus, runs) -> {
            String[] key = appAndStatus.split("\n", 2);
            handle.createUpdate("UPDATE run_count SET n = n - :runs WHERE app_id = :app AND status = :status")
                    .bind("runs", runs).bind("app", key[0]).bind("status", key[1]).execute();
        });
    }
}
