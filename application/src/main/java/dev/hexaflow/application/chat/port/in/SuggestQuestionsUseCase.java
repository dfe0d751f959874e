package dev.hexaflow.application.chat.port.in;

import dev.hexaflow.application.common.ApiException;
import java.util.List;

/**
 * Up to three questions the end user may ask next, made by the model from the conversation's last turns with
 * Dify's prompt; a model that fails or answers no JSON list gives none.
 */
public interface SuggestQuestionsUseCase {

    /**
     * @throws ApiException NOT_CHAT_APP, NOT_FOUND "Message Not Exists." or "Conversation Not Exists.",
     *                      BAD_REQUEST "Suggested Questions Is Disabled." when the app's
     *                      suggested_questions_after_answer feature is off
     */
    List<String> suggest(SuggestQuestionsQuery query);

    record SuggestQuestionsQuery(String appId, String user, String messageId) {
    }
}
