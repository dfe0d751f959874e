package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.SuggestQuestionsUseCase;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the message and its conversation, checks the app's suggested_questions_after_answer feature, then asks
 * the model with the conversation's last turns; a turn still answering (no answer yet) is left out, as Dify's
 * memory leaves it.
 */
public final class SuggestQuestionsService implements SuggestQuestionsUseCase {

    private final ChatAccess access;
    private final MessageRepository messages;
    private final SystemModel model;

    public SuggestQuestionsService(ChatAccess access, MessageRepository messages, SystemModel model) {
        this.access = access;
        this.messages = messages;
        this.model = model;
    }

    @Override
    public List<String> suggest(SuggestQuestionsQuery query) {
        access.chatApp(query.appId());
        Message message = access.endUserId(query.appId(), query.user())
                .flatMap(endUser -> messages.find(query.appId(), endUser, query.messageId()))
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, ChatAccess.MESSAGE_NOT_EXISTS));
        access.conversation(query.appId(), query.user(), message.conversationId());
        Workflow workflow = access.workflow(query.appId());
        if (!workflow.features().tree("suggested_questions_after_answer").bool("enabled", false)) {
            throw new ApiException(ApiError.BAD_REQUEST, "Suggested Questions Is Disabled.");
        }
        List<Message> history = new ArrayList<>(messages.last(message.conversationId(),
                SuggestedQuestions.HISTORY));
        if (!history.isEmpty()) {
            Message newest = history.get(history.size() - 1);
            if (newest.answer().isEmpty() && newest.answerTokens() == 0) {
                history.remove(history.size() - 1);
            }
        }
        return model.ask(workflow, SuggestedQuestions.prompt(history), SuggestedQuestions.PARAMETERS)
                .map(SuggestedQuestions::parse)
                .orElse(List.of());
    }
}
