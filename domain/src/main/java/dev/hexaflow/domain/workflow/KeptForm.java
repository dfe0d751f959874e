package dev.hexaflow.domain.workflow;

import java.util.Map;

/**
 * A form as kept: the form as sent, whose app and end user's run it belongs to, its state, and once answered the
 * action and inputs (null before, and for a timeout).
 *
 * @param createdAt  Unix seconds
 * @param answeredAt Unix seconds, null while waiting
 * @param applied    whether the run has gone on with this answer (a resumption took it)
 */
public record KeptForm(HumanInputForm form, String appId, String endUserId, FormStatus status, String actionId,
        Map<String, Object> submittedData, long createdAt, Long answeredAt, boolean applied) {
    public KeptForm {
        if (form == null || appId == null || status == null) {
            throw new IllegalArgumentException("a kept form has its form, app and status");
        }
    }
}
