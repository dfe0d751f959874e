package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;

import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.ConversationStatus;
import dev.hexaflow.domain.chat.FeedbackRating;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import dev.hexaflow.domain.workflow.ConversationVariable;
import java.util.List;
import java.util.Map;

/**
 * Chat test data with safe defaults: end users {@link #ADA} and {@link #BOB} of {@code APP}, and {@link #CARL}
 * of {@code OTHER_APP}, which a database's references need to exist (see the Jdbi test).
 */
final class ChatFixtures {

    static final String ADA = "e-ada";
    static final String BOB = "e-bob";
    static final String CARL = "e-carl";

    private ChatFixtures() {
    }

    /** The three chat repositories of one store, which deleting a conversation reaches across. */
    record ChatStore(ConversationRepository conversations, MessageRepository messages,
            ConversationVariableRepository variables) {
    }

    static Conversation conversation(String id, String endUser, long createdAt, long updatedAt) {
        return conversation(id, APP, endUser, createdAt, updatedAt);
    }

    static Conversation conversation(String id, String app, String endUser, long createdAt, long updatedAt) {
        return new Conversation(id, app, endUser, "name " + id, Map.of("city", "Paris"), ConversationStatus.NORMAL,
                "Hello", createdAt, updatedAt);
    }

    static Message message(String id, Conversation conversation, long createdAt) {
        return Message.started(id, conversation.id(), conversation.appId(), conversation.endUserId(), null,
                Map.of("city", "Paris"), "question " + id, List.of(), "run-" + id, "task-" + id, createdAt);
    }

    static MessageFeedback like(String id, Message message, long at) {
        return new MessageFeedback(id, message.appId(), message.conversationId(), message.id(),
                FeedbackRating.LIKE, "good", FeedbackSource.USER, message.endUserId(), at, at);
    }

    static KeptVariable variable(String conversationId, String id, String name, Object value, int position,
            long at) {
        return new KeptVariable(conversationId, new ConversationVariable(id, name, "string", value, "a variable"),
                position, at, at);
    }
}
