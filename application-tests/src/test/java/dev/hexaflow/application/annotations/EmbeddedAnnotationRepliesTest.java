package dev.hexaflow.application.annotations;

import static dev.hexaflow.application.annotations.AnnotationBed.CHAT_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase.ReplyActionCommand;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.AnnotationCommand;
import dev.hexaflow.application.annotations.service.ChatAnnotationReplies;
import dev.hexaflow.application.chat.port.out.AnnotationReplies.AnnotatedAnswer;
import dev.hexaflow.application.chat.port.out.AnnotationReplies.AnnotationQuestion;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.domain.annotation.Annotation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Annotations matched through the server's embedding model, when one is configured, as Dify matches them: by the
 * cosine of the vectors, so a query of other words but the same meaning is answered; each question is embedded
 * once, newest first (then only the turn's query), a changed question anew; an endpoint that fails leaves the turn to the model.
 */
class EmbeddedAnnotationRepliesTest {

    private final AnnotationBed bed = new AnnotationBed();
    private final MeaningEmbeddings model = new MeaningEmbeddings();
    private final ChatAnnotationReplies replies = new ChatAnnotationReplies(bed.annotations, model, bed.clock,
            () -> UUID.randomUUID().toString());

    private Annotation add(String question, String answer) {
        Annotation added = bed.manage.create(new AnnotationCommand(CHAT_APP, question, answer));
        bed.clock.advance(Duration.ofSeconds(1));
        return added;
    }

    private Optional<AnnotatedAnswer> ask(String query) {
        return replies.answer(new AnnotationQuestion(CHAT_APP, query, "m-1", "e-ada"));
    }

    private void enable(double threshold) {
        bed.reply.act(new ReplyActionCommand(CHAT_APP, "enable", threshold, "openai", "text-embedding-3-small"));
    }

    @Test
    void aQueryOfOtherWordsButTheSameMeaningIsAnswered() {
        Annotation hours = add("What are your opening hours?", "9 to 5");
        add("Where is the office?", "In Paris");
        enable(0.9);

        assertThat(ask("When do you open?")).map(AnnotatedAnswer::annotationId).contains(hours.id());
        assertThat(bed.annotations.hits(CHAT_APP, hours.id()).get(0).score()).isEqualTo(1.0);
        assertThat(ask("Tell me a joke")).isEmpty();
    }

    @Test
    void eachQuestionIsEmbeddedOnceAndAChangedQuestionAnew() {
        Annotation hours = add("What are your opening hours?", "9 to 5");
        add("Where is the office?", "In Paris");
        enable(0.9);

        ask("When do you open?");
        ask("Where is your office?");
        bed.manage.update(hours.id(), new AnnotationCommand(CHAT_APP, "When are you open?", "9 to 5"));
        ask("What is the address?");

        assertThat(model.calls).containsExactly(
                List.of("Where is the office?", "What are your opening hours?"), List.of("When do you open?"),
                List.of("Where is your office?"),
                List.of("When are you open?"), List.of("What is the address?"));
    }

    @Test
    void anEndpointThatFailsLeavesTheTurnToTheModel() {
        Annotation hours = add("What are your opening hours?", "9 to 5");
        enable(0.9);
        model.failing = true;

        assertThat(ask("What are your opening hours?")).isEmpty();
        assertThat(bed.annotations.find(CHAT_APP, hours.id()).orElseThrow().hitCount()).isZero();
        model.failing = false;
        assertThat(ask("What are your opening hours?")).isPresent();
    }

    /**
     * An embedding model that knows three meanings: time (hours, open, when), place (office, where, address) and
     * anything else; each call and its texts are recorded.
     */
    static final class MeaningEmbeddings implements Embeddings {

        final List<List<String>> calls = new ArrayList<>();
        boolean failing;

        @Override
        public Optional<String> model() {
            return Optional.of("meaning-3");
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            calls.add(List.copyOf(texts));
            if (failing) {
                throw new EmbeddingException("the embeddings endpoint answered 502", null);
            }
            return texts.stream().map(MeaningEmbeddings::meaning).toList();
        }

        private static float[] meaning(String text) {
            String lower = text.toLowerCase(Locale.ROOT);
            if (lower.matches(".*\\b(hours|open|when)\\b.*")) {
                return new float[] {1, 0, 0};
            }
            if (lower.matches(".*\\b(office|where|address)\\b.*")) {
                return new float[] {0, 1, 0};
            }
            return new float[] {0, 0, 1};
        }
    }
}
