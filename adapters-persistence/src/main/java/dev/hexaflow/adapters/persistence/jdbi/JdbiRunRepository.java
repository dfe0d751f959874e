package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jdbi.v3.core.Jdbi;

/**
 * Runs in {@code workflow_run} (each run its own log entry), node executions in {@code node_execution}, the events
 * their streams showed in {@code run_event}, and the counts of runs by app and status in {@code run_count}. Writes
 * go through {@link JdbiRunWriter} (group commit), reads and the logs through {@link JdbiRunQueries}, failing runs
 * left running and pruning through {@link JdbiRunSweeps}. Paused runs and their forms are kept by the writer as it
 * keeps a pause, and claimed through {@link JdbiPauseRepository}.
 */
public final class JdbiRunRepository implements RunRepository {

    private final JdbiRunWriter writer;
    private final JdbiRunQueries queries;
    private final JdbiRunSweeps sweeps;
    private final RecordFolding folding;
    private final JdbiPauseRepository pauses;

    public JdbiRunRepository(Jdbi jdbi) {
        this(jdbi, WriteGate.OPEN);
    }

    /** @param gate refuses writes at once while the store cannot keep them */
    public JdbiRunRepository(Jdbi jdbi, WriteGate gate) {
        this(jdbi, gate, null);
    }

    /**
     * @param gate     refuses writes at once while the store cannot keep them
     * @param instance the instance whose runs these are, kept with each run: another instance fails them once its
     *                 lease runs out ({@link #failRunsOfLapsedInstances}); null where one instance is alone
     */
    public JdbiRunRepository(Jdbi jdbi, WriteGate gate, String instance) {
        SqlDialect dialect = SqlDialect.of(jdbi);
        this.queries = new JdbiRunQueries(jdbi, dialect);
        this.sweeps = new JdbiRunSweeps(jdbi, dialect);
        this.folding = new RecordFolding(jdbi);
        this.writer = new JdbiRunWriter(jdbi, dialect, gate, instance);
        this.pauses = new JdbiPauseRepository(jdbi);
    }

    /** Writes queued for the single writer and not yet committed: how far the store is behind the runs. */
    public int writeBacklog() {
        return writer.backlog();
    }

    @Override
    public CompletableFuture<Void> started(StartedRun started) {
        return writer.started(started);
    }

    @Override
    public CompletableFuture<Void> saveNode(String runId, NodeExecution execution) {
        return writer.saveNode(runId, execution);
    }

    @Override
    public CompletableFuture<Void> kept(KeptRun kept) {
        return writer.kept(kept);
    }

    @Override
    public CompletableFuture<Void> finished(WorkflowRun run) {
        return writer.finished(run);
    }

    @Override
    public CompletableFuture<Void> paused(RunPause pause) {
        return writer.paused(pause);
    }

    @Override
    public PauseRepository pauses() {
        return pauses;
    }

    @Override
    public CompletableFuture<Void> event(KeptEvent event) {
        return writer.event(event);
    }

    @Override
    public List<KeptEvent> events(String runId, long after) {
        return queries.events(runId, after);
    }

    /** Writes what is queued, then takes no more writes. */
    @Override
    public void close() {
        writer.close();
    }

    @Override
    public Optional<WorkflowRun> find(String appId, String runId) {
        return queries.find(appId, runId);
    }

    @Override
    public List<NodeExecution> nodeExecutions(String runId) {
        return queries.nodeExecutions(runId);
    }

    @Override
    public Optional<String> taskId(String runId) {
        return queries.taskId(runId);
    }

    @Override
    public NodeExecutionSlice nodeExecutions(String runId, int offset, int limit) {
        return queries.nodeExecutions(runId, offset, limit);
    }

    @Override
    public LogPage logs(LogQuery query) {
        return queries.logs(query);
    }

    @Override
    public RunSlice search(RunSearch search) {
        return queries.search(search);
    }

    @Override
    public Optional<FoundRun> locate(String runId) {
        return queries.locate(runId);
    }

    @Override
    public int failUnfinished(String error, long finishedAt, Set<String> spared) {
        return sweeps.failUnfinished(error, finishedAt, spared);
    }

    @Override
    public int failRunsOfLapsedInstances(String error, long finishedAt, long leaseCutoff) {
        return sweeps.failRunsOfLapsedInstances(error, finishedAt, leaseCutoff);
    }

    @Override
    public int prune(Pruning pruning) {
        return sweeps.prune(pruning);
    }

    @Override
    public int foldIntoRecords(int batch) {
        return folding.fold(batch);
    }
}
