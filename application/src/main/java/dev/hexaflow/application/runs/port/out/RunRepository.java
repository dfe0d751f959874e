package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps an app's runs, their node executions and their log entries, and searches the logs. Writes are queued and
 * kept in the order they were made; each answers a future that completes once the write is committed (durable),
 * so that a caller decides what must wait for it. A read sees the writes whose futures have completed.
 */
public interface RunRepository extends AutoCloseable {

    /** Keeps a run that has started, with its log entry. */
    CompletableFuture<Void> started(StartedRun run);

    /** Keeps a node execution as it is now (running, or ended); a later call for the same id replaces it. */
    CompletableFuture<Void> saveNode(String runId, NodeExecution execution);

    /** Keeps the run's end. */
    CompletableFuture<Void> finished(WorkflowRun run);

    /**
     * Keeps a run and what it has done so far in one write: its start (ended too when {@code run.started().run()}
     * has ended), its node executions as they are now, and its events so far. A run kept this way may go on with
     * the other writes ({@link #saveNode}, {@link #event}, {@link #finished}) as one kept by {@link #started}.
     */
    default CompletableFuture<Void> kept(KeptRun run) {
        String runId = run.started().run().id();
        List<CompletableFuture<Void>> writes = new java.util.ArrayList<>();
        writes.add(started(run.started()));
        run.nodes().forEach(node -> writes.add(saveNode(runId, node)));
        run.events().forEach(event -> writes.add(event(event)));
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }

    /** A run as {@link #kept} keeps it: its start, its node executions as they are now, its events in order. */
    record KeptRun(StartedRun started, List<NodeExecution> nodes, List<KeptEvent> events) {
        public KeptRun {
            nodes = List.copyOf(nodes);
            events = List.copyOf(events);
        }
    }

    /**
     * Keeps one of a run's events as its stream shows it, queued with the run's other writes; the run's recorder
     * numbers its events from 1 in their order, and keeps each once.
     */
    /**
     * A run paused at human-input nodes, in the writer's order after its node executions: its row takes status
     * {@code paused} with what it made so far (outputs, time, tokens, steps; no end), its {@link PausedRun} is kept
     * (replacing the one of an earlier pause) and its new forms are kept waiting. A later {@link #finished} of the run
     * removes the paused run kept (its forms stay, answered or not, to say so).
     */
    CompletableFuture<Void> paused(RunPause pause);

    /** A pause to keep: the paused run, the forms this stretch of it sent out, and whose run it is. */
    record RunPause(PausedRun paused, List<HumanInputForm> newForms, String appId, String endUserId, long pausedAt) {
        public RunPause {
            if (paused == null || appId == null) {
                throw new IllegalArgumentException("a pause names its paused run and app");
            }
            newForms = List.copyOf(newForms);
        }
    }

    /** The paused runs' forms and the claims on them, kept in the same store as the runs. */
    PauseRepository pauses();

    CompletableFuture<Void> event(KeptEvent event);

    /** The run's kept events numbered above {@code after} (0 for all of them), in their order. */
    List<KeptEvent> events(String runId, long after);

    /**
     * An event of a run as its stream shows it: its number in the run (from 1) and the text of its frame's data.
     */
    record KeptEvent(String runId, long seq, String data) {
        public KeptEvent {
            if (runId == null || data == null) {
                throw new IllegalArgumentException("a kept event has a run id and data");
            }
            if (seq < 1) {
                throw new IllegalArgumentException("a kept event's seq is 1 or more, was " + seq);
            }
        }
    }

    /** Commits what is queued, then takes no more writes. */
    @Override
    void close();

    /** The app's run; empty for an unknown id or another app's run. */
    Optional<WorkflowRun> find(String appId, String runId);

    List<NodeExecution> nodeExecutions(String runId);

    /** The task id the run was started with; empty for an unknown run. */
    Optional<String> taskId(String runId);

    /**
     * The run's node executions from the {@code offset}-th (0 for the first), at most {@code limit} of them, in
     * their order, with how many the run has in all: a page read without reading the rest.
     */
    NodeExecutionSlice nodeExecutions(String runId, int offset, int limit);

    /** Some of a run's node executions, and how many it has in all. */
    record NodeExecutionSlice(long total, List<NodeExecution> items) {
    }

    LogPage logs(LogQuery query);

    /**
     * Ends every run (and node execution) still running, as a restart does for runs its predecessor could not
     * finish; answers how many runs it ended.
     */
    default int failUnfinished(String error, long finishedAt) {
        return failUnfinished(error, finishedAt, java.util.Set.of());
    }

    /**
     * As {@link #failUnfinished(String, long)}, but for the runs of {@code spared}: runs still going on here, which
     * keep their own end when they reach it (failing them would leave their caller told one end and the store
     * keeping another).
     */
    int failUnfinished(String error, long finishedAt, java.util.Set<String> spared);

    /**
     * Ends the runs still running whose instance holds no lease renewed at {@code leaseCutoff} (Unix milliseconds)
     * or after, as {@link #failUnfinished} does: instances that share the store fail the runs of one that died.
     * Where one instance is alone on its store (in memory), none is another's: it ends none.
     */
    default int failRunsOfLapsedInstances(String error, long finishedAt, long leaseCutoff) {
        return 0;
    }

    /**
     * Deletes at most {@code batch} ended runs that the rule lets go, with their node executions, events and log
     * entries, oldest first: those created before {@code createdBefore}, and those past the newest
     * {@code keepPerApp} runs of their app (null for no such bound). A running run is never deleted. Answers
     * how many runs it deleted; fewer than {@code batch} means none is left to delete now.
     */
    int prune(Pruning pruning);

    /**
     * Rewrites at most {@code batch} ended runs kept row by row as records (each run's node executions and events
     * in its own row), which read back the same and cost the store less; answers how many it folded, fewer than
     * {@code batch} when none is left now. A store that keeps no rows (runs in memory are objects) folds none.
     */
    default int foldIntoRecords(int batch) {
        return 0;
    }

    /** What a prune lets go, and how many runs it deletes at most in one go. */
    record Pruning(Long createdBefore, Integer keepPerApp, int batch) {
        public Pruning {
            if (batch < 1) {
                throw new IllegalArgumentException("a prune deletes 1 run or more at a time, was " + batch);
            }
        }
    }

    /**
     * A run as it starts: the run, its app, task, end user, workflow version label, log entry id, and the id of
     * the trace its spans belong to (null when it is not traced).
     */
    record StartedRun(WorkflowRun run, String appId, String taskId, EndUser user, String version, String logId,
            String traceId, String triggeredFrom) {

        /** A run a caller asked for ({@code app-run}). */
        public StartedRun(WorkflowRun run, String appId, String taskId, EndUser user, String version, String logId,
                String traceId) {
            this(run, appId, taskId, user, version, logId, traceId, null);
        }

        /** A run that is not traced. */
        public StartedRun(WorkflowRun run, String appId, String taskId, EndUser user, String version, String logId) {
            this(run, appId, taskId, user, version, logId, null);
        }
    }

    /** A search of an app's logs; null fields do not filter; times are Unix seconds. */
    record LogQuery(String appId, String keyword, String status, int page, int limit, Long createdBefore,
            Long createdAfter, String endUserSessionId) {
    }

    record LogPage(int page, int limit, long total, boolean hasMore, List<LogEntry> items) {
    }

    /** @param triggeredFrom how the run started: {@code app-run}, or a trigger's kind ({@code schedule}, ...) */
    record LogEntry(String logId, WorkflowRun run, String version, EndUser user, long createdAt,
            String triggeredFrom) {

        public LogEntry(String logId, WorkflowRun run, String version, EndUser user, long createdAt) {
            this(logId, run, version, user, createdAt, null);
        }

        public LogEntry {
            triggeredFrom = triggeredFrom == null ? "app-run" : triggeredFrom;
        }
    }

    /**
     * The runs of {@code search.appIds()} that match, newest first, from just after {@code search.after()} (null
     * for the newest), at most {@code search.limit()}: the operator's view across apps, read page by page without
     * counting. A run's place in that order ({@link RunPosition}) never changes, so a page never repeats nor skips
     * a run that the next holds.
     */
    RunSlice search(RunSearch search);

    /** A run of any app by its id, with its app and task; empty for an unknown id. */
    Optional<FoundRun> locate(String runId);

    /** A search across apps; null fields do not filter; times are Unix seconds. */
    record RunSearch(List<String> appIds, String status, String endUserSessionId, Long createdAfter,
            Long createdBefore, String keyword, RunPosition after, int limit) {
        public RunSearch {
            appIds = List.copyOf(appIds);
            if (limit < 1) {
                throw new IllegalArgumentException("a search answers 1 run or more, was " + limit);
            }
        }
    }

    /** Where a run stands in the newest-first order: its start, then the order in which it was kept. */
    record RunPosition(long createdAt, long order) {
    }

    /** A run found across apps: its app, task and log entry, its place in the order, and its trace (or null). */
    record FoundRun(String appId, String taskId, LogEntry entry, RunPosition position, String traceId) {

        /** A run kept without a trace. */
        public FoundRun(String appId, String taskId, LogEntry entry, RunPosition position) {
            this(appId, taskId, entry, position, null);
        }
    }

    /** A page of found runs, and whether more follow the last. */
    record RunSlice(List<FoundRun> items, boolean hasMore) {
        public RunSlice {
            items = List.copyOf(items);
        }
    }
}
