package dev.hexaflow.application.annotations.service;

import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import dev.hexaflow.application.chat.port.out.AnnotationReplies;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The chat context's annotation reply, as Dify's AnnotationReplyFeature: when the app's reply is on, the
 * annotation whose question is closest to the message (top 1) answers it if its score reaches the app's
 * threshold (a threshold of 0 is 1, as Dify reads it); the hit is counted and kept in the annotation's history.
 * Any failure here is logged and leaves the message to the model, as Dify's does.
 */
public final class ChatAnnotationReplies implements AnnotationReplies {

    /** Where a Service API or web page message comes from, in Dify's hit history. */
    static final String SOURCE_API = "api";
    /** The longest query a hit keeps (the store's column): a longer message's is kept cut. */
    static final int MAX_HIT_QUERY = 100_000;

    private final AnnotationRepository annotations;
    private final Clock clock;
    private final Supplier<String> ids;
    private final System.Logger log = System.getLogger(ChatAnnotationReplies.class.getName());

    public ChatAnnotationReplies(AnnotationRepository annotations, Clock clock, Supplier<String> ids) {
        this.annotations = annotations;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public Optional<AnnotatedAnswer> answer(AnnotationQuestion question) {
        try {
            Optional<AnnotationSetting> setting = annotations.setting(question.appId());
            if (setting.isEmpty()) {
                return Optional.empty();
            }
            double threshold = setting.get().scoreThreshold() == 0 ? 1 : setting.get().scoreThreshold();
            Annotation best = null;
            double bestScore = -1;
            for (Annotation annotation : annotations.all(question.appId())) {
                double score = TextSimilarity.of(question.query(), annotation.question());
                if (score > bestScore) {
                    best = annotation;
                    bestScore = score;
                }
            }
            if (best == null || bestScore < threshold) {
                return Optional.empty();
            }
            annotations.hit(new AnnotationHit(ids.get(), best.id(), question.appId(), question.endUserId(),
                    cut(question.query()), SOURCE_API, bestScore, question.messageId(), best.question(), best.answer(),
                    clock.instant().getEpochSecond()));
            return Optional.of(new AnnotatedAnswer(best.id(), best.answer()));
        } catch (RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "Annotation reply of app " + question.appId()
                    + " failed; message " + question.messageId() + " goes to the model: " + e);
            return Optional.empty();
        }
    }

    private static String cut(String query) {
        return query.length() > MAX_HIT_QUERY ? query.substring(0, MAX_HIT_QUERY) : query;
    }
}
