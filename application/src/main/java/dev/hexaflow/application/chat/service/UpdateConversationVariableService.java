package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.UpdateConversationVariableUseCase;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.VariableTypeMismatchException;
import java.time.Clock;

/** Sets a variable's value after the domain's type check (Dify's), and keeps when it changed. */
public final class UpdateConversationVariableService implements UpdateConversationVariableUseCase {

    private final ChatAccess access;
    private final ConversationVariableRepository variables;
    private final Clock clock;

    public UpdateConversationVariableService(ChatAccess access, ConversationVariableRepository variables,
            Clock clock) {
        this.access = access;
        this.variables = variables;
        this.clock = clock;
    }

    @Override
    public KeptVariable update(UpdateConversationVariableCommand command) {
        access.chatApp(command.appId());
        Conversation conversation = access.conversation(command.appId(), command.user(),
                command.conversationId());
        KeptVariable kept = variables.find(conversation.id(), command.variableId()).orElseThrow(
                () -> new ApiException(ApiError.NOT_FOUND, "Conversation Variable Not Exists."));
        KeptVariable updated;
        try {
            updated = kept.withValue(command.value(), clock.instant().getEpochSecond());
        } catch (VariableTypeMismatchException e) {
            throw new ApiException(ApiError.BAD_REQUEST, e.getMessage());
        }
        variables.update(updated);
        return updated;
    }
}
