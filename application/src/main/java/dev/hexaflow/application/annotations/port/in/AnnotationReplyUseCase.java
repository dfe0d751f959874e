package dev.hexaflow.application.annotations.port.in;

import dev.hexaflow.application.common.ApiException;

/**
 * Switches an app's annotation reply on (with the least similarity a message needs) or off, as Dify's job does,
 * and answers a job's status. Hexaflow's job has no index to build: it is done when it is answered.
 */
public interface AnnotationReplyUseCase {

    /**
     * @throws ApiException INVALID_PARAM for an action other than enable or disable, or a missing or bad field
     *                      (enable and disable alike need all three, as Dify's parser does)
     */
    ReplyJob act(ReplyActionCommand command);

    /** @throws ApiException INVALID_PARAM "The job does not exist." for a job of another action or app, or none */
    ReplyJob status(String appId, String action, String jobId);

    /**
     * @param scoreThreshold the least similarity, from 0 to 1; null when the request had none
     */
    record ReplyActionCommand(String appId, String action, Double scoreThreshold, String embeddingProviderName,
            String embeddingModelName) {
    }

    /** @param errorMsg why the job failed; empty when it did not */
    record ReplyJob(String jobId, String jobStatus, String errorMsg) {
    }
}
