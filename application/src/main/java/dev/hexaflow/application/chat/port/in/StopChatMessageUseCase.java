package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;

/** Stops an end user's chat turn under way, as Dify's chat stop does: an unknown task is no error. */
public interface StopChatMessageUseCase {

    /** @throws ApiException INVALID_PARAM without a user, NOT_FOUND or NOT_CHAT_APP for an app that is no chatflow */
    void stop(String appId, String taskId, String user);
}
