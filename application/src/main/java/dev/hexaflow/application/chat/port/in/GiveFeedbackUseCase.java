package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;

/** Keeps an end user's like or dislike of an answer; a null rating takes it back. */
public interface GiveFeedbackUseCase {

    /**
     * @throws ApiException NOT_CHAT_APP, NOT_FOUND "Message Not Exists.", INVALID_PARAM for a rating other than
     *                      like, dislike or null, or a null rating where none was given
     */
    void give(GiveFeedbackCommand command);

    /** @param rating like, dislike, or null to remove the feedback */
    record GiveFeedbackCommand(String appId, String user, String messageId, String rating, String content) {
    }
}
