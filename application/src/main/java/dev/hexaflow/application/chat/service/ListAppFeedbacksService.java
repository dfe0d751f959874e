package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.util.List;

/** Checks the page as Dify does (page from 1, limit 1 to 101), then reads the app's feedback, newest first. */
public final class ListAppFeedbacksService implements ListAppFeedbacksUseCase {

    private final ChatAccess access;
    private final MessageRepository messages;

    public ListAppFeedbacksService(ChatAccess access, MessageRepository messages) {
        this.access = access;
        this.messages = messages;
    }

    @Override
    public List<MessageFeedback> list(ListAppFeedbacksQuery query) {
        access.chatApp(query.appId());
        if (query.page() < 1 || query.page() > 99999) {
            throw new ApiException(ApiError.INVALID_PARAM, "page must be between 1 and 99999");
        }
        ChatAccess.checkLimit(query.limit(), 101);
        return messages.feedbacks(query.appId(), query.page(), query.limit());
    }
}
