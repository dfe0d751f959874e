package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.out.CompletionWebhooks;
import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.workflow.engine.RunListener;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Tells the receiver of a run's completion webhook each time the run pauses: the pause as the run's stream tells
 * it ({@code workflow_paused}), one delivery per pause. Only once the pause is kept, so that its forms' tokens open
 * when the receiver follows them; and on an executor, so that a store slow to take the delivery delays no run and
 * fails no pause. A pause whose delivery is not kept (the store refused it, the server stopped first) is one warning
 * line: the run's end is still delivered.
 */
final class PausedRunWebhooks {

    private static final System.Logger LOG = System.getLogger(PausedRunWebhooks.class.getName());

    private final CompletionWebhooks callbacks;
    private final RunEventFormat format;
    private final Executor executor;

    /**
     * @param format   writes the pause's body, as its stream frame's data
     * @param executor keeps each pause's delivery, off the run's thread
     */
    PausedRunWebhooks(CompletionWebhooks callbacks, RunEventFormat format, Executor executor) {
        this.callbacks = callbacks;
        this.format = format;
        this.executor = executor;
    }

    /**
     * The run's listener, followed, for a run with a completion webhook ({@code completion} not null), by a delivery
     * of each pause once it is kept ({@code kept}, read after the pause was played: the recorder's {@code settled});
     * none for a pause that could not be kept.
     */
    RunListener after(RunListener listener, Supplier<CompletableFuture<Void>> kept, Delivery completion,
            String taskId) {
        if (completion == null) {
            return listener;
        }
        return event -> {
            listener.on(event);
            if (event instanceof RunEvent.WorkflowPaused paused) {
                kept.get().thenRun(() -> tell(completion, paused, taskId));
            }
        };
    }

    private void tell(Delivery completion, RunEvent.WorkflowPaused paused, String taskId) {
        try {
            executor.execute(() -> {
                try {
                    String body = format.data(paused, completion.runId(), taskId);
                    if (body != null) {
                        callbacks.runPaused(completion, body);
                    }
                } catch (RuntimeException e) {
                    warn(completion, e.getMessage());
                }
            });
        } catch (RejectedExecutionException e) {
            warn(completion, "the server is shutting down");
        }
    }

    private static void warn(Delivery completion, String reason) {
        LOG.log(System.Logger.Level.WARNING, "The pause of run " + completion.runId() + " was not posted to its "
                + "webhook: " + reason);
    }
}
