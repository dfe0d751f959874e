package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.runs.port.out.PauseRepository;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * Runs, their node executions and log entries in maps, each write kept at once (its future is complete when it
 * is answered). The log search answers as the Jdbi store's does: the keyword matched case-insensitively in the
 * inputs' and outputs' JSON text and in the session id, or a run id exactly; newest first, the later-started
 * first of runs started in the same second. Values are kept as that store reads them back (plain maps and lists,
 * whole numbers as Long, files as their maps), copied, so that a caller changing its map later changes nothing
 * kept. One lock guards everything: a search reads the app's runs whole, and a claim of a paused run
 * ({@link InMemoryPauseRepository}) changes it and its forms at once.
 */
public final class InMemoryRunRepository implements RunRepository {

    /** A run as kept, with what its log entry shows and the lower-cased text its keyword search reads. */
    private static final class Kept {
        final long seq;
        final String appId;
        final String version;
        final EndUser user;
        final String logId;
        final String taskId;
        final String traceId;
        String triggeredFrom;
        final String inputsText;
        WorkflowRun run;
        String outputsText;

        Kept(long seq, String appId, WorkflowRun run, String version, EndUser user, String logId, String taskId,
                String traceId) {
            this.seq = seq;
            this.traceId = traceId;
            this.appId = appId;
            this.version = version;
            this.user = user;
            this.logId = logId;
            this.taskId = taskId;
            this.inputsText = searchText(run.inputs());
            keep(run);
        }

        void keep(WorkflowRun next) {
            run = next;
            outputsText = searchText(next.outputs());
        }
    }

    private static final Comparator<Kept> NEWEST_FIRST = Comparator.<Kept>comparingLong(kept -> kept.run.createdAt())
            .thenComparingLong(kept -> kept.seq).reversed();

    private final Map<String, Kept> runs = new HashMap<>();
    private final Map<String, List<Kept>> runsByApp = new HashMap<>();
    private final Map<String, Map<String, NodeExecution>> nodesByRun = new HashMap<>();
    private final Map<String, NavigableMap<Long, KeptEvent>> eventsByRun = new HashMap<>();
    private final InMemoryPauseRepository pauses = new InMemoryPauseRepository(this);
    private long nextSeq;
    private boolean closed;

    @Override
    public synchronized CompletableFuture<Void> started(StartedRun started) {
        if (closed) {
            return refusedAsClosed();
        }
        WorkflowRun run = started.run();
        if (runs.containsKey(run.id())) {
            return CompletableFuture.failedFuture(new IllegalStateException("run " + run.id() + " started already"));
        }
        Kept kept = new Kept(nextSeq++, started.appId(), plain(run), started.version(), started.user(),
                started.logId(), started.taskId(), started.traceId());
        kept.triggeredFrom = started.triggeredFrom();
        runs.put(run.id(), kept);
        runsByApp.computeIfAbsent(started.appId(), app -> new ArrayList<>()).add(kept);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized CompletableFuture<Void> saveNode(String runId, NodeExecution execution) {
        if (closed) {
            return refusedAsClosed();
        }
        nodesByRun.computeIfAbsent(runId, id -> new LinkedHashMap<>()).put(execution.id(), plain(execution));
        return CompletableFuture.completedFuture(null);
    }

    /** Keeps the end of a run that is running: an ended run keeps its first end, one never started stays absent. */
    @Override
    public synchronized CompletableFuture<Void> finished(WorkflowRun run) {
        if (closed) {
            return refusedAsClosed();
        }
        Kept kept = runs.get(run.id());
        if (kept != null && kept.run.status() == RunStatus.RUNNING) {
            WorkflowRun before = kept.run;
            kept.keep(new WorkflowRun(before.id(), before.workflowId(), run.status(), before.inputs(),
                    plainMap(run.outputs()), run.error(), run.elapsedTime(), run.totalTokens(), run.totalSteps(),
                    run.exceptionsCount(), before.createdAt(), run.finishedAt()));
        }
        pauses.dropUnlessPaused(run.id());
        return CompletableFuture.completedFuture(null);
    }

    /** Pauses a run that is running (as its end would end it), and keeps its paused run and new forms. */
    @Override
    public synchronized CompletableFuture<Void> paused(RunPause pause) {
        if (closed) {
            return refusedAsClosed();
        }
        WorkflowRun run = pause.paused().run();
        if (run.status() != RunStatus.PAUSED) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("run " + run.id() + " is "
                    + run.status().wireName() + ", not paused"));
        }
        try {
            pauses.keep(pause);
        } catch (IllegalStateException e) {
            return CompletableFuture.failedFuture(e);
        }
        move(run.id(), RunStatus.RUNNING, before -> new WorkflowRun(before.id(), before.workflowId(),
                RunStatus.PAUSED, before.inputs(), plainMap(run.outputs()), null, run.elapsedTime(), run.totalTokens(),
                run.totalSteps(), run.exceptionsCount(), before.createdAt(), null));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public PauseRepository pauses() {
        return pauses;
    }

    /** The run's status; null for a run never kept. */
    synchronized RunStatus statusOf(String runId) {
        Kept kept = runs.get(runId);
        return kept == null ? null : kept.run.status();
    }

    /** Changes the run if it is in status {@code from}: false when it is not, or unknown. */
    synchronized boolean move(String runId, RunStatus from, UnaryOperator<WorkflowRun> change) {
        Kept kept = runs.get(runId);
        if (kept == null || kept.run.status() != from) {
            return false;
        }
        kept.keep(change.apply(kept.run));
        return true;
    }

    /** Keeps the event; a number the run has already is refused. */
    @Override
    public synchronized CompletableFuture<Void> event(KeptEvent event) {
        if (closed) {
            return refusedAsClosed();
        }
        if (eventsByRun.computeIfAbsent(event.runId(), id -> new TreeMap<>())
                .putIfAbsent(event.seq(), event) != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("event " + event.seq() + " of run "
                    + event.runId() + " is kept already"));
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public synchronized List<KeptEvent> events(String runId, long after) {
        return List.copyOf(eventsByRun.getOrDefault(runId, new TreeMap<>()).tailMap(after, false)
                .values());
    }

    private static CompletableFuture<Void> refusedAsClosed() {
        return CompletableFuture.failedFuture(new IllegalStateException("the store is closed"));
    }

    /** Takes no more writes; there is nothing queued to keep first. */
    @Override
    public synchronized void close() {
        closed = true;
    }

    @Override
    public synchronized Optional<WorkflowRun> find(String appId, String runId) {
        return Optional.ofNullable(runs.get(runId)).filter(kept -> kept.appId.equals(appId)).map(kept -> kept.run);
    }

    @Override
    public synchronized Optional<String> taskId(String runId) {
        return Optional.ofNullable(runs.get(runId)).map(kept -> kept.taskId);
    }

    @Override
    public synchronized List<NodeExecution> nodeExecutions(String runId) {
        return nodesByRun.getOrDefault(runId, Map.of()).values().stream()
                .sorted(Comparator.comparingInt(NodeExecution::index)).toList();
    }

    @Override
    public synchronized NodeExecutionSlice nodeExecutions(String runId, int offset, int limit) {
        if (offset < 0 || limit < 1) {
            throw new IllegalArgumentException("a slice starts at 0 or later and holds 1 or more");
        }
        List<NodeExecution> all = nodeExecutions(runId);
        int from = Math.min(offset, all.size());
        return new NodeExecutionSlice(all.size(), List.copyOf(all.subList(from, Math.min(all.size(),
                from + limit))));
    }

    @Override
    public synchronized LogPage logs(LogQuery query) {
        if (query.page() < 1 || query.limit() < 1) {
            throw new IllegalArgumentException("a log page is 1 or more, and so is its limit");
        }
        List<Kept> matches = runsByApp.getOrDefault(query.appId(), List.of()).stream()
                .filter(kept -> matches(kept, query)).sorted(NEWEST_FIRST).toList();
        long offset = (long) (query.page() - 1) * query.limit();
        List<LogEntry> items = matches.stream().skip(offset).limit(query.limit())
                .map(kept -> new LogEntry(kept.logId, kept.run, kept.version, kept.user, kept.run.createdAt(),
                        kept.triggeredFrom))
                .toList();
        long total = matches.size();
        return new LogPage(query.page(), query.limit(), total, total > (long) query.page() * query.limit(), items);
    }

    @Override
    public synchronized RunSlice search(RunSearch search) {
        LogQuery filters = new LogQuery(null, search.keyword(), search.status(), 1, search.limit(),
                search.createdBefore(), search.createdAfter(), search.endUserSessionId());
        List<Kept> matches = search.appIds().stream().distinct()
                .flatMap(app -> runsByApp.getOrDefault(app, List.of()).stream())
                .filter(kept -> matches(kept, filters) && before(kept, search.after())).sorted(NEWEST_FIRST)
                .limit(search.limit() + 1L).toList();
        List<FoundRun> items = matches.stream().limit(search.limit()).map(InMemoryRunRepository::found).toList();
        return new RunSlice(items, matches.size() > search.limit());
    }

    private static boolean before(Kept kept, RunPosition after) {
        return after == null || kept.run.createdAt() < after.createdAt()
                || (kept.run.createdAt() == after.createdAt() && kept.seq < after.order());
    }

    private static FoundRun found(Kept kept) {
        return new FoundRun(kept.appId, kept.taskId, new LogEntry(kept.logId, kept.run, kept.version, kept.user,
                kept.run.createdAt(), kept.triggeredFrom), new RunPosition(kept.run.createdAt(), kept.seq),
                kept.traceId);
    }

    @Override
    public synchronized Optional<FoundRun> locate(String runId) {
        return Optional.ofNullable(runs.get(runId)).map(InMemoryRunRepository::found);
    }

    private static boolean matches(Kept kept, LogQuery query) {
        WorkflowRun run = kept.run;
        return (query.status() == null || run.status().wireName().equals(query.status()))
                && (query.createdBefore() == null || run.createdAt() <= query.createdBefore())
                && (query.createdAfter() == null || run.createdAt() >= query.createdAfter())
                && (query.endUserSessionId() == null || kept.user.sessionId().equals(query.endUserSessionId()))
                && (query.keyword() == null || matchesKeyword(kept, query.keyword()));
    }

    private static boolean matchesKeyword(Kept kept, String keyword) {
        String lower = keyword.toLowerCase(Locale.ROOT);
        return kept.inputsText.contains(lower) || (kept.outputsText != null && kept.outputsText.contains(lower))
                || kept.user.sessionId().toLowerCase(Locale.ROOT).contains(lower) || kept.run.id().equals(keyword);
    }

    @Override
    public synchronized int failUnfinished(String error, long finishedAt, java.util.Set<String> spared) {
        int failed = 0;
        for (Kept kept : runs.values()) {
            WorkflowRun run = kept.run;
            if (run.status() != RunStatus.RUNNING || spared.contains(run.id())) {
                continue;
            }
            // Only the status, the error and the end time change, as the Jdbi store's UPDATE sets them.
            kept.keep(new WorkflowRun(run.id(), run.workflowId(), RunStatus.FAILED, run.inputs(), run.outputs(), error,
                    run.elapsedTime(), run.totalTokens(), run.totalSteps(), run.exceptionsCount(), run.createdAt(),
                    finishedAt));
            Map<String, NodeExecution> nodes = nodesByRun.get(run.id());
            if (nodes != null) {
                nodes.replaceAll((id, node) -> node.status() != NodeStatus.RUNNING ? node
                        : new NodeExecution(node.id(), node.nodeId(), node.nodeType(), node.title(), node.index(),
                                node.predecessorNodeId(), node.inputs(), node.processData(), node.outputs(),
                                NodeStatus.FAILED, error, node.elapsedTime(), node.metadata(), node.createdAt(),
                                finishedAt));
            }
            failed++;
        }
        return failed;
    }

    @Override
    public synchronized int prune(Pruning pruning) {
        if (closed) {
            throw new IllegalStateException("the store is closed");
        }
        Set<Kept> victims = new LinkedHashSet<>();
        for (List<Kept> appRuns : runsByApp.values()) {
            List<Kept> newestFirst = appRuns.stream().sorted(NEWEST_FIRST).toList();
            List<Kept> oldestFirst = new ArrayList<>(newestFirst);
            Collections.reverse(oldestFirst);
            for (int i = 0; i < oldestFirst.size(); i++) {
                Kept kept = oldestFirst.get(i);
                if (victims.size() >= pruning.batch()) {
                    break;
                }
                boolean tooOld = pruning.createdBefore() != null && kept.run.createdAt() < pruning.createdBefore();
                int newerRuns = oldestFirst.size() - 1 - i;
                boolean pastKeep = pruning.keepPerApp() != null && newerRuns >= pruning.keepPerApp();
                boolean goesOn = kept.run.status() == RunStatus.RUNNING || kept.run.status() == RunStatus.PAUSED;
                if (!goesOn && (tooOld || pastKeep)) {
                    victims.add(kept);
                }
            }
        }
        for (Kept kept : victims) {
            runs.remove(kept.run.id());
            runsByApp.get(kept.appId).remove(kept);
            nodesByRun.remove(kept.run.id());
            eventsByRun.remove(kept.run.id());
            pauses.forget(kept.run.id());
        }
        return victims.size();
    }

    private static String searchText(Map<String, Object> values) {
        return values == null ? null : Values.pythonJson(values).toLowerCase(Locale.ROOT);
    }

    private static WorkflowRun plain(WorkflowRun run) {
        return new WorkflowRun(run.id(), run.workflowId(), run.status(), plainMap(run.inputs()),
                plainMap(run.outputs()), run.error(), run.elapsedTime(), run.totalTokens(), run.totalSteps(),
                run.exceptionsCount(), run.createdAt(), run.finishedAt());
    }

    private static NodeExecution plain(NodeExecution node) {
        return new NodeExecution(node.id(), node.nodeId(), node.nodeType(), node.title(), node.index(),
                node.predecessorNodeId(), plainMap(node.inputs()), plainMap(node.processData()),
                plainMap(node.outputs()), node.status(), node.error(), node.elapsedTime(), node.metadata(),
                node.createdAt(), node.finishedAt());
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> plainMap(Map<String, Object> values) {
        return (Map<String, Object>) plain(values);
    }

    /** The value as the Jdbi store reads it back from JSON; an unmodifiable copy. */
    static Object plainValue(Object value) {
        return plain(value);
    }

    /**
     * The value as JSON text would carry it (which is how the Jdbi store keeps it): a Double stays one, any other
     * number is a whole Long, a file is its map, anything else unknown is its text; an unmodifiable copy.
     */
    private static Object plain(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Double) {
            return value;
        }
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof FileValue file) {
            return plain(file.asMap());
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(String.valueOf(key), plain(item)));
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(plain(item)));
            return Collections.unmodifiableList(copy);
        }
        return value.toString();
    }
}
