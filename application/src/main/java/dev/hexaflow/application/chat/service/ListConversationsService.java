package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.ListConversationsUseCase;
import dev.hexaflow.application.chat.port.out.ConversationRepository.ConversationPage;
import dev.hexaflow.application.chat.port.out.ConversationRepository.ConversationQuery;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.ConversationSort;
import java.util.List;
import java.util.Optional;

/** Checks the page asked for as Dify does (limit 1 to 100, a known sort_by, a last_id of this list), then reads. */
public final class ListConversationsService implements ListConversationsUseCase {

    private final ChatAccess access;
    private final ConversationRepository conversations;

    public ListConversationsService(ChatAccess access, ConversationRepository conversations) {
        this.access = access;
        this.conversations = conversations;
    }

    @Override
    public ConversationList list(ListConversationsQuery query) {
        access.chatApp(query.appId());
        ChatAccess.checkLimit(query.limit(), 100);
        ConversationSort sort;
        try {
            sort = ConversationSort.fromWire(query.sortBy());
        } catch (IllegalArgumentException e) {
            throw new ApiException(ApiError.INVALID_PARAM, e.getMessage());
        }
        Optional<String> endUser = access.endUserId(query.appId(), query.user());
        boolean paging = query.lastId() != null && !query.lastId().isEmpty();
        if (endUser.isEmpty()) {
            if (paging) {
                throw lastNotExists();
            }
            return new ConversationList(query.limit(), false, List.of());
        }
        Conversation after = null;
        if (paging) {
            after = conversations.find(query.appId(), endUser.get(), query.lastId())
                    .orElseThrow(ListConversationsService::lastNotExists);
        }
        ConversationPage page = conversations.list(new ConversationQuery(query.appId(), endUser.get(), after,
                query.limit(), sort));
        return new ConversationList(query.limit(), page.hasMore(), page.items());
    }

    private static ApiException lastNotExists() {
        return new ApiException(ApiError.NOT_FOUND, "Last Conversation Not Exists.");
    }
}
