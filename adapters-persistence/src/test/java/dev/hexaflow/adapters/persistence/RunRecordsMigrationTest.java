package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import java.nio.file.Path;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs kept by a version before run records (a row per node execution, rows of events) read the same after the
 * upgrade, and are then folded into records.
 */
class RunRecordsMigrationTest {

    @TempDir
    Path dataDir;

    @Test
    void runsOfAnOlderDatabaseReadTheSameBeforeAndAfterTheyAreFoldedIntoRecords() {
        String url = "jdbc:h2:" + dataDir.resolve("hexaflow").toAbsolutePath();
        Flyway.configure().dataSource(url, "sa", "").locations(H2Database.MIGRATIONS).target("33").load()
                .migrate();
        Jdbi.create(url, "sa", "").useHandle(handle -> {
            oldRun(handle, "old-ended", "succeeded", 110L);
            oldRun(handle, "old-running", "running", null);
        });

        try (H2Database database = H2Database.openFile(dataDir);
                JdbiRunRepository runs = new JdbiRunRepository(database.jdbi())) {
            List<NodeExecution> nodes = runs.nodeExecutions("old-ended");
            assertThat(nodes).extracting(NodeExecution::nodeId).containsExactly("start", "end");
            assertThat(nodes.get(1).status()).isEqualTo(NodeStatus.SUCCEEDED);
            assertThat(nodes.get(1).outputs()).containsEntry("text", "caf\u00e9 \"quoted\"");
            assertThat(runs.events("old-ended", 0)).extracting(KeptEvent::data).containsExactly("{\"a\": 1}",
                    "{\"b\": 2}", "{\"c\": 3}");

            assertThat(runs.foldIntoRecords(100)).isOne();

            assertThat(runs.nodeExecutions("old-ended")).isEqualTo(nodes);
            assertThat(runs.events("old-ended", 1)).extracting(KeptEvent::data).containsExactly("{\"b\": 2}",
                    "{\"c\": 3}");
            database.jdbi().useHandle(handle -> {
                assertThat(count(handle, "node_execution", "old-ended")).isZero();
                assertThat(count(handle, "run_event", "old-ended")).isZero();
                assertThat(count(handle, "node_execution", "old-running")).isEqualTo(2);
            });
        }
    }

    private static long count(Handle handle, String table, String runId) {
        return handle.createQuery("SELECT COUNT(*) FROM " + table + " WHERE run_id = :id").bind("id", runId)
                .mapTo(Long.class).one();
    }

    /** A run as version 33 kept it: its row, a row per node execution, its events packed in one row. */
    private static void oldRun(Handle handle, String id, String status, Long finishedAt) {
        handle.execute("INSERT INTO workflow_run (id, app_id, workflow_id, status, inputs, outputs, created_at, "
                + "finished_at) VALUES (?, 'app-1', 'wf-1', ?, '{\"q\": \"hi\"}', '{}', 100, ?)", id, status,
                finishedAt);
        handle.execute("INSERT INTO node_execution (id, run_id, node_id, node_type, title, idx, inputs, outputs, "
                + "status, elapsed_time, created_at, finished_at) VALUES (?, ?, 'start', 'start', 'Start', 1, "
                + "'{\"q\": \"hi\"}', '{\"q\": \"hi\"}', 'succeeded', 0.01, 100, 100)", id + "-1", id);
        handle.execute("INSERT INTO node_execution (id, run_id, node_id, node_type, title, idx, predecessor, "
                + "inputs, outputs, status, elapsed_time, metadata, created_at, finished_at) VALUES (?, ?, 'end', "
                + "'end', 'End', 2, 'start', '{}', '{\"text\": \"caf\u00e9 \\\"quoted\\\"\"}', 'succeeded', 0.02, "
                + "'{\"total_tokens\": 5, \"total_price\": \"0\", \"currency\": \"USD\"}', 100, 101)", id + "-2", id);
        handle.execute("INSERT INTO run_event (run_id, seq, first_seq, data) VALUES (?, 3, 1, ?)", id,
                "{\"a\": 1}\n{\"b\": 2}\n{\"c\": 3}");
    }
}
