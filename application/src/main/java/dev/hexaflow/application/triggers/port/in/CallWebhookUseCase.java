package dev.hexaflow.application.triggers.port.in;

import dev.hexaflow.domain.trigger.WebhookCall;
import dev.hexaflow.domain.trigger.WebhookSpec;
import dev.hexaflow.domain.workflow.WorkflowRun;

/**
 * A request to a webhook trigger's URL (or a bound plugin trigger's): checked as Dify checks it, then a run of the
 * app's published workflow from that trigger.
 */
public interface CallWebhookUseCase {

    /**
     * Checks that the URL is a trigger's that is on, before its request's body is read.
     *
     * @throws WebhookRefused 404 otherwise
     */
    void open(String code);

    /**
     * @throws WebhookRefused for a request that starts nothing (unknown or disabled URL, failed authentication,
     *                        a request that does not fit the node, too many runs)
     */
    WebhookAnswer call(String code, WebhookCall call);

    /**
     * The run started and what to answer: the node's response (its own body, or Dify's default when
     * {@code ownBody} is false), and, when the node waits for the run's end ({@code async_mode: false}), the run as
     * it ended (or null when it did not end within the node's timeout).
     */
    record WebhookAnswer(String runId, String taskId, WebhookSpec.Response response, boolean ownBody,
            boolean waited, WorkflowRun ended) {
    }

    /** A refused request: the HTTP status to answer, Dify's error title and a message for the caller. */
    final class WebhookRefused extends RuntimeException {
        private final int status;
        private final String error;

        public WebhookRefused(int status, String error, String message) {
            super(message);
            this.status = status;
            this.error = error;
        }

        public int status() {
            return status;
        }

        public String error() {
            return error;
        }
    }
}
