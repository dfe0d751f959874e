package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.BrowseConversationsUseCase;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ConversationList;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageList;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageWithFeedback;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.ConversationRepository.ConversationPage;
import dev.hexaflow.application.chat.port.out.ConversationRepository.ConversationQuery;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository.MessagePage;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.ConversationSort;
import dev.hexaflow.domain.chat.Message;
import java.util.List;
import java.util.Optional;

/** Reads a chat app's conversations across its end users, with the same pages and checks as an end user's. */
public final class BrowseConversationsService implements BrowseConversationsUseCase {

    private final ChatAccess access;
    private final ConversationRepository conversations;
    private final MessageRepository messages;
    private final MessageFileLinks links;

    /** @param signatures signs the URLs of the messages' files as they are listed */
    public BrowseConversationsService(ChatAccess access, ConversationRepository conversations,
            MessageRepository messages, FileSignatures signatures) {
        this.access = access;
        this.conversations = conversations;
        this.messages = messages;
        this.links = new MessageFileLinks(signatures);
    }

    @Override
    public ConversationList conversations(String appId, String user, String lastId, int limit) {
        access.chatApp(appId);
        ChatAccess.checkLimit(limit, 100);
        String endUser = null;
        if (user != null && !user.isEmpty()) {
            Optional<String> found = access.endUserId(appId, user);
            if (found.isEmpty()) {
                return new ConversationList(limit, false, List.of());
            }
            endUser = found.get();
        }
        Conversation after = null;
        if (lastId != null && !lastId.isEmpty()) {
            after = conversations.findInApp(appId, lastId).orElseThrow(
                    () -> new ApiException(ApiError.NOT_FOUND, "Last Conversation Not Exists."));
        }
        ConversationPage page = conversations.list(new ConversationQuery(appId, endUser, after, limit,
                ConversationSort.DEFAULT));
        return new ConversationList(limit, page.hasMore(), page.items());
    }

    @Override
    public MessageList messages(String appId, String conversationId, String firstId, int limit) {
        access.chatApp(appId);
        ChatAccess.checkLimit(limit, 100);
        Conversation conversation = conversations.findInApp(appId, conversationId).orElseThrow(
                () -> new ApiException(ApiError.NOT_FOUND, "Conversation Not Exists."));
        Message before = null;
        if (firstId != null && !firstId.isEmpty()) {
            before = messages.findInConversation(conversation.id(), firstId).orElseThrow(
                    () -> new ApiException(ApiError.NOT_FOUND, "First Message Not Exists."));
        }
        MessagePage page = messages.page(conversation.id(), before, limit);
        return new MessageList(limit, page.hasMore(), page.items().stream()
                .map(item -> new MessageWithFeedback(links.shown(item.message()), item.feedback())).toList());
    }
}
