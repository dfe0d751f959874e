package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.RenameConversationUseCase;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.Message;
import java.time.Clock;
import java.util.Optional;

/**
 * A manual rename keeps the name given and counts as a change (updated_at); an automatic one asks the model for
 * a title from the first query and, as in Dify, leaves updated_at alone and the name as it was when the model
 * fails.
 */
public final class RenameConversationService implements RenameConversationUseCase {

    private final ChatAccess access;
    private final ConversationRepository conversations;
    private final MessageRepository messages;
    private final SystemModel model;
    private final Clock clock;

    public RenameConversationService(ChatAccess access, ConversationRepository conversations,
            MessageRepository messages, SystemModel model, Clock clock) {
        this.access = access;
        this.conversations = conversations;
        this.messages = messages;
        this.model = model;
        this.clock = clock;
    }

    @Override
    public Conversation rename(RenameConversationCommand command) {
        access.chatApp(command.appId());
        if (!command.autoGenerate() && (command.name() == null || command.name().isBlank())) {
            throw new ApiException(ApiError.INVALID_PARAM, "name is required when auto_generate is false");
        }
        Conversation conversation = access.conversation(command.appId(), command.user(), command.conversationId());
        Conversation renamed;
        if (command.autoGenerate()) {
            Message first = messages.first(conversation.id()).orElseThrow(() -> new ApiException(
                    ApiError.NOT_FOUND, ChatAccess.MESSAGE_NOT_EXISTS));
            Optional<String> answer = model.ask(access.workflow(command.appId()),
                    ConversationTitles.prompt(first.query()), ConversationTitles.PARAMETERS);
            if (answer.isEmpty()) {
                return conversation;
            }
            renamed = conversation.titled(ConversationTitles.title(answer.get(), first.query()));
        } else {
            if (command.name().length() > Conversation.MAX_NAME_LENGTH) {
                throw new ApiException(ApiError.INVALID_PARAM, "name must be at most " + Conversation.MAX_NAME_LENGTH
                        + " characters.");
            }
            renamed = conversation.renamed(command.name(), clock.instant().getEpochSecond());
        }
        conversations.update(renamed);
        return renamed;
    }
}
