package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.util.List;

/**
 * Checks the page as Dify does (page from 1, limit 1 to 101), then reads the app's feedback, newest first. Any app's
 * key may ask, as Dify's AppGetFeedbacksApi checks no mode: an app with no chat has no feedback, so an empty list.
 */
public final class ListAppFeedbacksService implements ListAppFeedbacksUseCase {

    private final ChatAccess access;
    private final MessageRepository messages;

    public ListAppFeedbacksService(ChatAccess access, MessageRepository messages) {
        this.access = access;
        this.messages = messages;
    }

    @Override
    public List<MessageFeedback> list(ListAppFeedbacksQuery query) {
        access.app(query.appId());
        if (query.page() < 1) {
            throw new ApiException(ApiError.INVALID_PARAM, "page must be 1 or more");
        }
        ChatAccess.checkLimit(query.limit(), 101);
        // Past where any store could hold feedback (an offset beyond an int), as Dify: an empty page, not an error.
        if ((long) (query.page() - 1) * query.limit() >= Integer.MAX_VALUE) {
            return List.of();
        }
        return messages.feedbacks(query.appId(), query.page(), query.limit());
    }
}
