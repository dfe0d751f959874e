package dev.hexaflow.application.chat.port.out;

import java.util.Optional;

/**
 * The app's annotation reply, asked at the start of every chat turn: the answer of the annotation closest to the
 * message, when the app's reply is on and one is close enough (the hit then recorded), so that no model is asked.
 */
public interface AnnotationReplies {

    /** No annotation answers anything: every turn goes to the app's model. */
    AnnotationReplies NONE = question -> Optional.empty();

    Optional<AnnotatedAnswer> answer(AnnotationQuestion question);

    /** A chat message about to be answered: its app, its query, and the ids it is kept under. */
    record AnnotationQuestion(String appId, String query, String messageId, String endUserId) {
    }

    /** The annotation that answers it, and its answer. */
    record AnnotatedAnswer(String annotationId, String answer) {
    }
}
