package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.domain.workflow.NodeExecution;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Rewrites ended runs kept row by row (before runs were kept as records, or streamed) as records, a batch per
 * transaction: each run's node executions go into its row and their rows are deleted, and so do its events when
 * they can be joined. Readers read both ways alike, so a run is never missing in between, and a row written for the
 * run after it was folded (a late node save) is read over the record as any row is.
 */
final class RecordFolding {

    private static final String ENDED_UNFOLDED = "SELECT n.run_id FROM node_execution n JOIN workflow_run w ON w.id = "
            + "n.run_id WHERE w.status NOT IN ('running', 'paused') AND w.nodes IS NULL FETCH FIRST :rows ROWS ONLY";

    private final Jdbi jdbi;

    RecordFolding(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** Folds at most {@code batch} runs; answers how many (fewer than the batch: none is left now). */
    int fold(int batch) {
        return jdbi.inTransaction(handle -> {
            // A run has a row per node: read enough rows for a batch of runs with a dozen nodes each.
            Set<String> runs = new LinkedHashSet<>();
            for (String runId : handle.createQuery(ENDED_UNFOLDED).bind("rows", batch * 16).mapTo(String.class)
                    .list()) {
                if (runs.size() == batch) {
                    break;
                }
                runs.add(runId);
            }
            for (String runId : runs) {
                fold(handle, runId);
            }
            return runs.size();
        });
    }

    private static void fold(Handle handle, String runId) {
        List<Object[]> nodes = new ArrayList<>();
        for (NodeExecution node : handle.createQuery("SELECT * FROM node_execution WHERE run_id = :run_id ORDER BY "
                + "idx, id").bind("run_id", runId).map((rs, ctx) -> NodeExecutionRows.execution(rs)).list()) {
            nodes.add(NodeExecutionRows.columns(runId, node));
        }
        List<KeptEvent> events = new ArrayList<>();
        handle.createQuery("SELECT seq, first_seq, data FROM run_event WHERE run_id = :run_id ORDER BY seq")
                .bind("run_id", runId).map((rs, ctx) -> {
                    long seq = rs.getLong("first_seq");
                    String text = rs.getString("data");
                    String[] lines = seq == rs.getLong("seq") ? new String[] {text} : text.split("\n", -1);
                    for (String data : lines) {
                        events.add(new KeptEvent(runId, seq++, data));
                    }
                    return null;
                }).list();
        String joined = RunRecords.events(events);
        handle.createUpdate("UPDATE workflow_run SET nodes = :nodes, events_from = :from, events = :events WHERE id = "
                + ":run_id AND nodes IS NULL").bind("nodes", RunRecords.nodes(nodes))
                .bind("from", joined == null ? null : events.get(0).seq()).bind("events", joined)
                .bind("run_id", runId).execute();
        handle.createUpdate("DELETE FROM node_execution WHERE run_id = :run_id").bind("run_id", runId).execute();
        if (joined != null) {
            handle.createUpdate("DELETE FROM run_event WHERE run_id = :run_id").bind("run_id", runId).execute();
        }
    }
}
