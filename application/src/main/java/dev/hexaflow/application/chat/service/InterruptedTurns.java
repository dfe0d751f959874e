package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.Optional;

/**
 * Ends the messages of turns that a crash or a failed write cut off: a message still waiting for its answer while
 * its run has ended without succeeding (failed when the server started again, or when storage came back) would
 * otherwise stay {@code normal} with an empty answer for ever. Run after the interrupted runs are failed.
 */
public final class InterruptedTurns {

    /** Why a message ended, when its run does not say. */
    public static final String SERVER_STOPPED = "The server stopped before the answer was complete.";

    private final MessageRepository messages;
    private final RunRepository runs;

    public InterruptedTurns(MessageRepository messages, RunRepository runs) {
        this.messages = messages;
        this.runs = runs;
    }

    /** Ends each such message as {@code error}, with its run's error; answers how many it ended. */
    public int close() {
        int closed = 0;
        for (Message message : messages.awaitingAnswer()) {
            if (message.workflowRunId() == null) {
                continue;
            }
            Optional<WorkflowRun> run = runs.find(message.appId(), message.workflowRunId());
            if (run.isPresent() && (run.get().status() == RunStatus.FAILED
                    || run.get().status() == RunStatus.STOPPED)) {
                String error = run.get().error() == null || run.get().error().isBlank() ? SERVER_STOPPED
                        : run.get().error();
                if (messages.finish(message.interrupted(error))) {
                    closed++;
                }
            }
        }
        return closed;
    }
}
