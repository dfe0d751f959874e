package dev.hexaflow.application.annotations;

import static dev.hexaflow.application.annotations.AnnotationBed.AGENT_APP;
import static dev.hexaflow.application.annotations.AnnotationBed.CHAT_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.annotations.port.in.AnnotationReplyUseCase.ReplyActionCommand;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.AnnotationCommand;
import dev.hexaflow.application.chat.port.out.AnnotationReplies.AnnotatedAnswer;
import dev.hexaflow.application.chat.port.out.AnnotationReplies.AnnotationQuestion;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A chat message answered from an app's annotations, as Dify's AnnotationReplyFeature: only while the reply is
 * on, by the annotation whose question is closest, only when the score reaches the threshold (0 read as 1);
 * a hit is counted and recorded with the message's query, the end user, the score and the annotation as it was;
 * another app's annotations answer nothing.
 */
class ChatAnnotationRepliesTest {

    private final AnnotationBed bed = new AnnotationBed();

    private Annotation add(String appId, String question, String answer) {
        return bed.manage.create(new AnnotationCommand(appId, question, answer));
    }

    private void enable(String appId, double threshold) {
        bed.reply.act(new ReplyActionCommand(appId, "enable", threshold, "openai", "text-embedding-3-small"));
    }

    private Optional<AnnotatedAnswer> ask(String appId, String query) {
        return bed.replies.answer(new AnnotationQuestion(appId, query, "m-1", "e-ada"));
    }

    @Test
    void nothingAnswersWhileTheReplyIsOff() {
        add(CHAT_APP, "What are your opening hours?", "9 to 5");

        assertThat(ask(CHAT_APP, "What are your opening hours?")).isEmpty();
        enable(CHAT_APP, 0.9);
        assertThat(ask(CHAT_APP, "What are your opening hours?")).isPresent();
        bed.reply.act(new ReplyActionCommand(CHAT_APP, "disable", 0.9, "openai", "text-embedding-3-small"));
        assertThat(ask(CHAT_APP, "What are your opening hours?")).isEmpty();
    }

    @Test
    void theClosestQuestionAnswersWhenItReachesTheThresholdAndTheHitIsRecorded() {
        Annotation hours = add(CHAT_APP, "What are your opening hours?", "9 to 5, Monday to Friday.");
        add(CHAT_APP, "Where is your office?", "In Paris.");
        enable(CHAT_APP, 0.8);

        Optional<AnnotatedAnswer> answer = ask(CHAT_APP, "what are your OPENING hours");

        assertThat(answer).contains(new AnnotatedAnswer(hours.id(), "9 to 5, Monday to Friday."));
        assertThat(bed.annotations.find(CHAT_APP, hours.id()).orElseThrow().hitCount()).isEqualTo(1);
        List<AnnotationHit> hits = bed.annotations.hits(CHAT_APP, hours.id());
        assertThat(hits).hasSize(1);
        AnnotationHit hit = hits.get(0);
        assertThat(hit.query()).isEqualTo("what are your OPENING hours");
        assertThat(hit.endUserId()).isEqualTo("e-ada");
        assertThat(hit.messageId()).isEqualTo("m-1");
        assertThat(hit.source()).isEqualTo("api");
        assertThat(hit.score()).isEqualTo(1.0);
        assertThat(hit.annotationQuestion()).isEqualTo("What are your opening hours?");
        assertThat(hit.annotationAnswer()).isEqualTo("9 to 5, Monday to Friday.");
    }

    @Test
    void aQuestionBelowTheThresholdGoesToTheModelAndCountsNoHit() {
        Annotation hours = add(CHAT_APP, "What are your opening hours?", "9 to 5");
        enable(CHAT_APP, 0.9);

        // Three words of four and of five shared: a cosine of about 0.67.
        assertThat(ask(CHAT_APP, "what are your prices")).isEmpty();
        assertThat(ask(CHAT_APP, "Tell me a joke")).isEmpty();
        assertThat(bed.annotations.find(CHAT_APP, hours.id()).orElseThrow().hitCount()).isZero();
        enable(CHAT_APP, 0.5);
        assertThat(ask(CHAT_APP, "what are your prices")).isPresent();
    }

    @Test
    void aThresholdOfZeroIsOneAsDifyReadsIt() {
        add(CHAT_APP, "What are your opening hours?", "9 to 5");
        enable(CHAT_APP, 0);

        assertThat(ask(CHAT_APP, "what are your hours")).isEmpty();
        assertThat(ask(CHAT_APP, "What are your opening hours?")).isPresent();
    }

    @Test
    void wordsOfScriptsWithoutSpacesAreMatchedCharacterByCharacter() {
        Annotation hours = add(CHAT_APP, "你们的营业时间是什么？", "朝九晚五");
        enable(CHAT_APP, 0.9);

        assertThat(ask(CHAT_APP, "你们的营业时间是什么")).map(AnnotatedAnswer::annotationId).contains(hours.id());
    }

    @Test
    void anotherAppsAnnotationsAnswerNothing() {
        add(AGENT_APP, "What are your opening hours?", "9 to 5");
        enable(CHAT_APP, 0.5);
        enable(AGENT_APP, 0.5);

        assertThat(ask(CHAT_APP, "What are your opening hours?")).isEmpty();
        assertThat(ask(AGENT_APP, "What are your opening hours?")).isPresent();
    }

    @Test
    void aQueryPastWhatAHitKeepsIsKeptCut() {
        Annotation word = add(CHAT_APP, "hello", "Hi!");
        enable(CHAT_APP, 0.9);

        assertThat(ask(CHAT_APP, "hello ".repeat(20_000))).isPresent();
        assertThat(bed.annotations.hits(CHAT_APP, word.id()).get(0).query()).hasSize(100_000);
    }
}
