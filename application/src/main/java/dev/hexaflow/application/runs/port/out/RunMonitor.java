package dev.hexaflow.application.runs.port.out;

import dev.hexaflow.workflow.engine.RunListener;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Watches every run this server starts, whoever started it (a blocking or streaming call, a chat turn, another
 * app's tool node): log lines, metrics and traces see runs through it rather than through each caller's listener.
 * A watcher must never fail a run nor make it wait: it returns quickly and swallows its own failures.
 */
@FunctionalInterface
public interface RunMonitor {

    RunMonitor NONE = run -> RunListener.NONE;

    /**
     * Called on the thread that starts the run, just before it starts (so a trace context of the caller's request
     * is still current); the listener answered gets each of the run's events, in order, on the run's threads.
     */
    RunListener watch(WatchedRun run);

    /**
     * A run as it starts: its app and the app's mode, its ids, its workflow version, its end user; and where a
     * watcher that traces the run tells the id of the trace its spans belong to (W3C, 32 hex digits), for the run's
     * record to keep.
     */
    record WatchedRun(String appId, String appMode, String runId, String taskId, String workflowId,
            String endUser, Consumer<String> tracedAs) {

        public WatchedRun {
            tracedAs = tracedAs == null ? traceId -> { } : tracedAs;
        }

        /** A run whose trace id nobody keeps. */
        public WatchedRun(String appId, String appMode, String runId, String taskId, String workflowId,
                String endUser) {
            this(appId, appMode, runId, taskId, workflowId, endUser, null);
        }
    }

    /** Every one of {@code monitors}, each fed every event; one that fails does not keep the others from it. */
    static RunMonitor all(List<RunMonitor> monitors) {
        List<RunMonitor> each = List.copyOf(monitors);
        if (each.isEmpty()) {
            return NONE;
        }
        return run -> {
            List<RunListener> listeners = new ArrayList<>(each.size());
            for (RunMonitor monitor : each) {
                try {
                    RunListener listener = monitor.watch(run);
                    if (listener != RunListener.NONE) {
                        listeners.add(listener);
                    }
                } catch (RuntimeException e) {
                    // A watcher's failure is its own; the run goes on without it.
                }
            }
            if (listeners.isEmpty()) {
                return RunListener.NONE;
            }
            return event -> {
                for (RunListener listener : listeners) {
                    try {
                        listener.on(event);
                    } catch (RuntimeException e) {
                        // As above: no watcher fails a run.
                    }
                }
            };
        };
    }
}
