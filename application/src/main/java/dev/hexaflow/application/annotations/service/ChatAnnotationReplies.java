package dev.hexaflow.application.annotations.service;

import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import dev.hexaflow.application.chat.port.out.AnnotationReplies;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The chat context's annotation reply, as Dify's AnnotationReplyFeature: when the app's reply is on, the
 * annotation whose question is closest to the message (top 1) answers it if its score reaches the app's
 * threshold (a threshold of 0 is 1, as Dify reads it); the hit is counted and kept in the annotation's history.
 * The score is the cosine of the server's embeddings (HEXAFLOW_EMBEDDING_MODEL, the knowledge bases' model) when
 * one is configured, as Dify's vector search scores; with none, the cosine of the texts' word counts
 * ({@link TextSimilarity}). Any failure here is logged and leaves the message to the model, as Dify's does.
 */
public final class ChatAnnotationReplies implements AnnotationReplies {

    /** Where a Service API or web page message comes from, in Dify's hit history. */
    static final String SOURCE_API = "api";
    /** The longest query a hit keeps (the store's column): a longer message's is kept cut. */
    static final int MAX_HIT_QUERY = 100_000;
    /** How many questions' vectors are kept between turns, so that a turn embeds its query alone. */
    static final int KEPT_VECTORS = 10_000;

    private final AnnotationRepository annotations;
    private final Embeddings embeddings;
    private final Clock clock;
    private final Supplier<String> ids;
    private final System.Logger log = System.getLogger(ChatAnnotationReplies.class.getName());
    private final Map<String, float[]> vectors = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > KEPT_VECTORS;
        }
    };

    /** Scores by word counts alone: no embedding model. */
    public ChatAnnotationReplies(AnnotationRepository annotations, Clock clock, Supplier<String> ids) {
        this(annotations, null, clock, ids);
    }

    /** @param embeddings the server's embedding model, or null for none */
    public ChatAnnotationReplies(AnnotationRepository annotations, Embeddings embeddings, Clock clock,
            Supplier<String> ids) {
        this.annotations = annotations;
        this.embeddings = embeddings;
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
            List<Annotation> candidates = annotations.all(question.appId());
            double[] scores = scores(question.query(), candidates);
            int best = -1;
            for (int i = 0; i < scores.length; i++) {
                if (best < 0 || scores[i] > scores[best]) {
                    best = i;
                }
            }
            if (best < 0 || scores[best] < threshold) {
                return Optional.empty();
            }
            Annotation chosen = candidates.get(best);
            annotations.hit(new AnnotationHit(ids.get(), chosen.id(), question.appId(), question.endUserId(),
                    cut(question.query()), SOURCE_API, scores[best], question.messageId(), chosen.question(),
                    chosen.answer(), clock.instant().getEpochSecond()));
            return Optional.of(new AnnotatedAnswer(chosen.id(), chosen.answer()));
        } catch (RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "Annotation reply of app " + question.appId()
                    + " failed; message " + question.messageId() + " goes to the model: " + e);
            return Optional.empty();
        }
    }

    private double[] scores(String query, List<Annotation> candidates) {
        double[] scores = new double[candidates.size()];
        Optional<String> model = embeddings == null || candidates.isEmpty() ? Optional.empty() : embeddings.model();
        if (model.isEmpty()) {
            for (int i = 0; i < scores.length; i++) {
                scores[i] = TextSimilarity.of(query, candidates.get(i).question());
            }
            return scores;
        }
        List<float[]> questions = questionVectors(model.get(), candidates);
        float[] asked = embeddings.embed(List.of(query)).get(0);
        for (int i = 0; i < scores.length; i++) {
            scores[i] = cosine(asked, questions.get(i));
        }
        return scores;
    }

    /** The questions' vectors: those kept from earlier turns, the others embedded in one call and kept. */
    private List<float[]> questionVectors(String model, List<Annotation> candidates) {
        List<float[]> found = new ArrayList<>(candidates.size());
        synchronized (vectors) {
            for (Annotation annotation : candidates) {
                found.add(vectors.get(model + "\n" + annotation.question()));
            }
        }
        Set<String> unembedded = new LinkedHashSet<>();
        for (int i = 0; i < candidates.size(); i++) {
            if (found.get(i) == null) {
                unembedded.add(candidates.get(i).question());
            }
        }
        if (unembedded.isEmpty()) {
            return found;
        }
        List<String> missing = List.copyOf(unembedded);
        List<float[]> made = embeddings.embed(missing);
        Map<String, float[]> fresh = new LinkedHashMap<>();
        for (int i = 0; i < missing.size(); i++) {
            fresh.put(missing.get(i), made.get(i));
        }
        synchronized (vectors) {
            fresh.forEach((question, vector) -> vectors.put(model + "\n" + question, vector));
        }
        for (int i = 0; i < candidates.size(); i++) {
            if (found.get(i) == null) {
                found.set(i, fresh.get(candidates.get(i).question()));
            }
        }
        return found;
    }

    static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            return 0;
        }
        double dot = 0;
        double left = 0;
        double right = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            left += (double) a[i] * a[i];
            right += (double) b[i] * b[i];
        }
        return left == 0 || right == 0 ? 0 : Math.min(1.0, dot / Math.sqrt(left * right));
    }

    private static String cut(String query) {
        return query.length() > MAX_HIT_QUERY ? query.substring(0, MAX_HIT_QUERY) : query;
    }
}
