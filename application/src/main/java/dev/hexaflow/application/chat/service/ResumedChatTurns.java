package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.runs.port.out.ResumedTurns;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.workflow.engine.RunListener;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * The chat's side of a paused chatflow run going on: the turn's message, paused with the answer so far, is
 * completed by the rest of the run (the answer appended, its end, tokens and the conversation's variables kept),
 * as the turn's first stretch would have kept it. The pause names the message and its conversation.
 */
public final class ResumedChatTurns implements ResumedTurns {

    private final TurnKeeper.Stores stores;

    public ResumedChatTurns(ChatAccess access, ConversationRepository conversations, MessageRepository messages,
            ConversationVariableRepository variables, Clock clock, Supplier<String> ids,
            FileSignatures signatures) {
        this.stores = new TurnKeeper.Stores(access, conversations, messages, variables, clock, ids,
                new MessageFileLinks(signatures));
    }

    /** A keeper of the turn's message; none when the message or its conversation is gone, or was never paused. */
    @Override
    public RunListener resuming(String appId, PausedRun paused) {
        if (!(paused.chat().get("conversation_id") instanceof String conversationId)
                || !(paused.chat().get("message_id") instanceof String messageId)) {
            return RunListener.NONE; // a chatflow run a workflow client started: no turn is kept
        }
        Message message = stores.messages().findInConversation(conversationId, messageId)
                .filter(found -> found.appId().equals(appId) && found.status() == MessageStatus.PAUSED)
                .orElse(null);
        if (message == null) {
            return RunListener.NONE;
        }
        Conversation conversation = stores.conversations().find(appId, message.endUserId(), conversationId)
                .orElse(null);
        return conversation == null ? RunListener.NONE : TurnKeeper.resuming(stores, message, conversation)::on;
    }
}
