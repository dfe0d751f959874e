package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.ListConversationVariablesUseCase;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository.VariablePage;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.VariableNameFilter;

/**
 * Checks the filter and last_id as Dify does (a last_id the filter leaves out is not found either), then reads a
 * page of the conversation's variables.
 */
public final class ListConversationVariablesService implements ListConversationVariablesUseCase {

    private final ChatAccess access;
    private final ConversationVariableRepository variables;

    public ListConversationVariablesService(ChatAccess access, ConversationVariableRepository variables) {
        this.access = access;
        this.variables = variables;
    }

    @Override
    public VariableList list(ListConversationVariablesQuery query) {
        access.chatApp(query.appId());
        ChatAccess.checkLimit(query.limit(), 100);
        VariableNameFilter filter;
        try {
            filter = query.variableName() == null ? null : new VariableNameFilter(query.variableName());
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
        Conversation conversation = access.conversation(query.appId(), query.user(), query.conversationId());
        KeptVariable after = null;
        if (query.lastId() != null && !query.lastId().isEmpty()) {
            after = variables.find(conversation.id(), query.lastId())
                    .filter(variable -> filter == null || filter.matches(variable.variable().name()))
                    .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "Conversation Variable Not Exists."));
        }
        VariablePage page = variables.page(conversation.id(), after, filter, query.limit());
        return new VariableList(query.limit(), page.hasMore(), page.items());
    }
}
