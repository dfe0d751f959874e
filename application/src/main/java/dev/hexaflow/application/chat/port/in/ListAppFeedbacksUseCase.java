package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.util.List;

/** Every feedback given on an app's answers, newest first, a page at a time. */
public interface ListAppFeedbacksUseCase {

    /** @throws ApiException NOT_FOUND for an unknown app; INVALID_PARAM for a page below 1 or a limit out of 1..101 */
    List<MessageFeedback> list(ListAppFeedbacksQuery query);

    record ListAppFeedbacksQuery(String appId, int page, int limit) {
    }
}
