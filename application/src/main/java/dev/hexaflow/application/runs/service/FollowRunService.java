package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Subscribes to the run's feed first, then reads its kept events: whatever was published before the subscription
 * is in the store, whatever is kept after the read comes live, and an event in both is told once, by its number.
 * A run that does not go on here (it ended, or goes on in another instance) is read from the store, again every
 * {@link #POLL} until it has ended: a run found ended is read once more and its stream ends.
 */
public final class FollowRunService implements FollowRunUseCase {

    private static final Duration POLL = Duration.ofMillis(250);

    private final RunRepository runs;
    private final RunFeeds feeds;
    private final RunEventFormat format;

    /** @param format makes the frames of events kept as references ({@link EventReferences}) */
    public FollowRunService(RunRepository runs, RunFeeds feeds, RunEventFormat format) {
        this.runs = runs;
        this.feeds = feeds;
        this.format = format;
    }

    /** Whether a kept event is a run's {@code workflow_finished}: as its reference, or as its frame. */
    private static boolean endsTheRun(String data) {
        return data.equals("@wf") || data.startsWith("{\"event\":\"workflow_finished\"");
    }

    /** Whether a kept event is a run's {@code workflow_paused}. */
    private static boolean pausesTheRun(String data) {
        return data.startsWith("{\"event\":\"workflow_paused\"");
    }

    @Override
    public Following follow(FollowRunQuery query) {
        if (query.user() != null && !runs.locate(query.runId()).filter(found -> found.appId().equals(query.appId())
                && found.entry().user() != null && found.entry().user().sessionId().equals(query.user())).isPresent()) {
            throw new ApiException(ApiError.NOT_FOUND, "Workflow run not found");
        }
        FollowRunQuery from = query.fromLatestPause() ? query.after(latestStart(query.runId())) : query;
        Optional<BlockingQueue<Object>> live = feeds.follow(from.appId(), from.runId());
        if (live.isEmpty() && runs.find(from.appId(), from.runId()).isEmpty()) {
            throw new ApiException(ApiError.NOT_FOUND, "Workflow run not found.");
        }
        Following first = live.<Following>map(queue -> new Live(from, queue)).orElseGet(() -> new Stored(from));
        return from.continueOnPause() ? new PastPauses(from, first) : first;
    }

    /**
     * Where Dify's events route starts: after the run's latest pause, or, for a run that has ended, just before its
     * end (the end alone is told).
     */
    private long latestStart(String runId) {
        List<KeptEvent> kept = runs.events(runId, 0);
        for (int i = kept.size() - 1; i >= 0; i--) {
            if (endsTheRun(kept.get(i).data())) {
                return kept.get(i).seq() - 1;
            }
            if (pausesTheRun(kept.get(i).data())) {
                return kept.get(i).seq();
            }
        }
        return 0;
    }

    /**
     * A follower that goes on past pauses: when the stretch it followed live ends paused, it reads the store until
     * the run goes on (here or on another instance) and ends.
     */
    private final class PastPauses implements Following {
        private final FollowRunQuery query;
        private Following current;

        PastPauses(FollowRunQuery query, Following first) {
            this.query = query;
            this.current = first;
        }

        @Override
        public Next next(Duration wait) throws InterruptedException {
            Next next = current.next(wait);
            if (next instanceof Next.End && current instanceof Live live && runs.find(query.appId(), query.runId())
                    .map(run -> run.status() == RunStatus.PAUSED || run.status() == RunStatus.RUNNING).orElse(false)) {
                current.close();
                current = new Stored(query.after(live.last));
                return new Next.Quiet();
            }
            return next;
        }

        @Override
        public void close() {
            current.close();
        }
    }

    /** Events read from the store after the last one told. */
    private abstract class Told implements Following {
        final FollowRunQuery query;
        final Deque<KeptEvent> read = new ArrayDeque<>();
        long last;

        Told(FollowRunQuery query) {
            this.query = query;
            this.last = query.after();
        }

        void readStore() {
            List<KeptEvent> kept = runs.events(query.runId(), last);
            if (kept.stream().noneMatch(event -> EventReferences.isReference(event.data()))) {
                read.addAll(kept);
                return;
            }
            // Read after the events: the rows a reference points at were kept with it, or before it.
            Optional<WorkflowRun> run = runs.find(query.appId(), query.runId());
            Map<String, NodeExecution> nodes = new HashMap<>();
            runs.nodeExecutions(query.runId()).forEach(node -> nodes.put(node.id(), node));
            String taskId = runs.taskId(query.runId()).orElse(null);
            for (KeptEvent event : kept) {
                if (!EventReferences.isReference(event.data())) {
                    read.add(event);
                } else {
                    EventReferences.frame(event.data(), query.runId(), taskId, run, nodes, format)
                            .ifPresent(data -> read.add(new KeptEvent(event.runId(), event.seq(), data)));
                }
            }
        }

        Next.Event tell(KeptEvent event) {
            last = event.seq();
            return new Next.Event(event.seq(), event.data());
        }
    }

    /** A run going on here: the store's events, then its feed's. */
    private final class Live extends Told {
        private final BlockingQueue<Object> queue;

        Live(FollowRunQuery query, BlockingQueue<Object> queue) {
            super(query);
            this.queue = queue;
            readStore();
        }

        @Override
        public Next next(Duration wait) throws InterruptedException {
            if (!read.isEmpty()) {
                return tell(read.poll());
            }
            long until = System.nanoTime() + wait.toNanos();
            while (true) {
                Object next = queue.poll(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (next == null) {
                    return new Next.Quiet();
                }
                if (next == RunFeeds.END) {
                    return new Next.End();
                }
                KeptEvent event = (KeptEvent) next;
                if (event.seq() > last) {
                    return tell(event);
                }
            }
        }

        @Override
        public void close() {
            feeds.leave(query.runId(), queue);
        }
    }

    /**
     * A run not going on here: the store, read again until the run is found ended. A run whose end its own instance
     * could not keep (it was killed; the next start, or another instance, failed it) has no {@code
     * workflow_finished} among its events: its stream ends with one made from its row, numbered after its last
     * event, as a client that follows a stream to its end expects.
     */
    private final class Stored extends Told {
        private boolean ended;
        private boolean closed;

        Stored(FollowRunQuery query) {
            super(query);
            readAgain();
        }

        /** Reads the status before the events, so that a run found ended has all its events in this read. */
        private void readAgain() {
            ended = runs.find(query.appId(), query.runId()).map(run -> run.status().isTerminal()
                    || run.status() == RunStatus.PAUSED && !query.continueOnPause()).orElse(true);
            readStore();
        }

        @Override
        public Next next(Duration wait) throws InterruptedException {
            long until = System.nanoTime() + wait.toNanos();
            while (read.isEmpty()) {
                if (ended) {
                    Optional<KeptEvent> closing = closed ? Optional.empty() : closingEvent();
                    closed = true;
                    return closing.<Next>map(this::tell).orElseGet(Next.End::new);
                }
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return new Next.Quiet();
                }
                Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, POLL.toMillis()));
                readAgain();
            }
            return tell(read.poll());
        }

        /**
         * The {@code workflow_finished} of an ended run whose events end without one, numbered after the last; empty
         * when they end with one, or when the client is past the last (it was told this one already).
         */
        private Optional<KeptEvent> closingEvent() {
            List<KeptEvent> lastTold = last == 0 ? List.of() : runs.events(query.runId(), last - 1);
            if (last > 0 && (lastTold.isEmpty() || lastTold.get(0).seq() != last)) {
                return Optional.empty();
            }
            if (!lastTold.isEmpty() && endsTheRun(lastTold.get(0).data())) {
                return Optional.empty();
            }
            return runs.find(query.appId(), query.runId()).filter(run -> run.status().isTerminal())
                    .map(run -> new KeptEvent(query.runId(), last + 1, format.data(new RunEvent.WorkflowFinished(run),
                            query.runId(), runs.taskId(query.runId()).orElse(null))));
        }

        @Override
        public void close() {
            // Nothing is held between two reads.
        }
    }
}
