package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The runs going on in this process, each with whoever follows it live. A run's events are published here only
 * once they are kept, and in their order; its feed is closed after its last event. So a follower that subscribes
 * first and reads the store second misses nothing: what was published before it subscribed is in the store, and
 * what was kept after the read comes through its queue (an event in both is told apart by its number).
 */
public final class RunFeeds {

    /** What a follower's queue ends with, after the run's last event. */
    static final Object END = new Object();

    private final Map<String, Feed> feeds = new ConcurrentHashMap<>();

    /** A run's feed: its app, its followers' queues and its end. */
    static final class Feed {
        final String appId;
        final String taskId;
        final CompletableFuture<WorkflowRun> ended = new CompletableFuture<>();
        private final List<BlockingQueue<Object>> followers = new CopyOnWriteArrayList<>();
        private boolean closed;

        Feed(String appId, String taskId) {
            this.appId = appId;
            this.taskId = taskId;
        }
    }

    /** Opens a run's feed before the run starts, so that a follower never finds a run that has no feed yet. */
    void open(String runId, String appId, String taskId) {
        feeds.put(runId, new Feed(appId, taskId));
    }

    /** Passes a kept event on to the run's followers; called in the events' order. */
    void publish(KeptEvent event) {
        Feed feed = feeds.get(event.runId());
        if (feed != null) {
            feed.followers.forEach(queue -> queue.add(event));
        }
    }

    /** Whether anyone follows the run live now. */
    boolean followed(String runId) {
        Feed feed = feeds.get(runId);
        return feed != null && !feed.followers.isEmpty();
    }

    /** Ends the run's feed after its last event: its followers' queues end, its end is told. */
    void close(String runId, WorkflowRun run, Throwable failure) {
        Feed feed = feeds.remove(runId);
        if (feed == null) {
            return;
        }
        synchronized (feed) {
            feed.closed = true;
            feed.followers.forEach(queue -> queue.add(END));
        }
        if (failure != null) {
            feed.ended.completeExceptionally(failure);
        } else {
            feed.ended.complete(run);
        }
    }

    /** The app's run going on here; empty for a run that has ended, runs elsewhere, or is another app's. */
    Optional<Feed> find(String appId, String runId) {
        return Optional.ofNullable(feeds.get(runId)).filter(feed -> feed.appId.equals(appId));
    }

    /**
     * A queue that hears the app's run's events from now on, then {@link #END}; empty when the run is not going
     * on here.
     */
    Optional<BlockingQueue<Object>> follow(String appId, String runId) {
        Optional<Feed> found = find(appId, runId);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Feed feed = found.get();
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        synchronized (feed) {
            if (feed.closed) {
                return Optional.empty();
            }
            feed.followers.add(queue);
        }
        return Optional.of(queue);
    }

    /** Stops passing events to a follower that left. */
    void leave(String runId, BlockingQueue<Object> queue) {
        Feed feed = feeds.get(runId);
        if (feed != null) {
            feed.followers.remove(queue);
        }
    }
}
