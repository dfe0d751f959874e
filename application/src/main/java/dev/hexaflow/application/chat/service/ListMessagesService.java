package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageWithFeedback;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase;
import dev.hexaflow.application.chat.port.out.MessageRepository.MessagePage;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.Message;

/** Checks the conversation and first_id, then reads the page before first_id. */
public final class ListMessagesService implements ListMessagesUseCase {

    private final ChatAccess access;
    private final MessageRepository messages;
    private final MessageFileLinks links;

    /** @param signatures signs the URLs of the messages' files as they are listed */
    public ListMessagesService(ChatAccess access, MessageRepository messages, FileSignatures signatures) {
        this.access = access;
        this.messages = messages;
        this.links = new MessageFileLinks(signatures);
    }

    @Override
    public MessageList list(ListMessagesQuery query) {
        access.chatApp(query.appId());
        ChatAccess.checkLimit(query.limit(), 100);
        Conversation conversation = access.conversation(query.appId(), query.user(), query.conversationId());
        Message before = null;
        if (query.firstId() != null && !query.firstId().isEmpty()) {
            before = messages.findInConversation(conversation.id(), query.firstId()).orElseThrow(
                    () -> new ApiException(ApiError.NOT_FOUND, "First Message Not Exists."));
        }
        MessagePage page = messages.page(conversation.id(), before, query.limit());
        return new MessageList(query.limit(), page.hasMore(), page.items().stream()
                .map(item -> new MessageWithFeedback(links.shown(item.message()), item.feedback())).toList());
    }
}
