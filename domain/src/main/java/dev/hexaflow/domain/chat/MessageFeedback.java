package dev.hexaflow.domain.chat;

/**
 * An end user's rating of an answer, one per message and source: given again, it replaces the earlier one and
 * keeps its id and creation time. Times are Unix seconds.
 */
public record MessageFeedback(String id, String appId, String conversationId, String messageId,
        FeedbackRating rating, String content, FeedbackSource fromSource, String endUserId, long createdAt,
        long updatedAt) {

    public MessageFeedback {
        Conversation.requireText(id, "feedback id");
        Conversation.requireText(appId, "app id");
        Conversation.requireText(conversationId, "conversation id");
        Conversation.requireText(messageId, "message id");
        if (rating == null) {
            throw new IllegalArgumentException("a feedback needs its rating; a null rating removes it instead");
        }
        if (fromSource == null) {
            throw new IllegalArgumentException("a feedback needs its source");
        }
        if (updatedAt < createdAt) {
            throw new IllegalArgumentException("a feedback's updatedAt comes before its createdAt");
        }
    }

    /** The feedback given again: the new rating and content, the first one's id and creation time. */
    public MessageFeedback revised(FeedbackRating newRating, String newContent, long now) {
        return new MessageFeedback(id, appId, conversationId, messageId, newRating, newContent, fromSource,
                endUserId, createdAt, Math.max(now, createdAt));
    }
}
