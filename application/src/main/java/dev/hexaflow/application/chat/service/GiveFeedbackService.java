package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.FeedbackRating;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Keeps one feedback per message from its end user, as Dify's create_feedback: a rating sets or replaces it, a
 * null rating removes it, and a null rating where there is none is refused.
 */
public final class GiveFeedbackService implements GiveFeedbackUseCase {

    private final ChatAccess access;
    private final MessageRepository messages;
    private final Clock clock;
    private final Supplier<String> ids;

    public GiveFeedbackService(ChatAccess access, MessageRepository messages, Clock clock, Supplier<String> ids) {
        this.access = access;
        this.messages = messages;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public void give(GiveFeedbackCommand command) {
        access.chatApp(command.appId());
        FeedbackRating rating;
        try {
            rating = command.rating() == null ? null : FeedbackRating.fromWire(command.rating());
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
        Message message = access.endUserId(command.appId(), command.user())
                .flatMap(endUser -> messages.find(command.appId(), endUser, command.messageId()))
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, ChatAccess.MESSAGE_NOT_EXISTS));
        Optional<MessageFeedback> given = messages.findFeedback(message.id(), FeedbackSource.USER);
        long now = clock.instant().getEpochSecond();
        if (rating == null) {
            if (given.isEmpty()) {
                throw new ApiException(ApiError.INVALID_PARAM, "rating cannot be None when feedback not exists");
            }
            messages.removeFeedback(message.id(), FeedbackSource.USER);
            return;
        }
        messages.setFeedback(given.map(feedback -> feedback.revised(rating, command.content(), now))
                .orElseGet(() -> new MessageFeedback(ids.get(), message.appId(), message.conversationId(),
                        message.id(), rating, command.content(), FeedbackSource.USER, message.endUserId(), now,
                        now)));
    }
}
