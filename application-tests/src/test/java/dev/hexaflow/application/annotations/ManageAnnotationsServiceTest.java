package dev.hexaflow.application.annotations;

import static dev.hexaflow.application.annotations.AnnotationBed.AGENT_APP;
import static dev.hexaflow.application.annotations.AnnotationBed.CHAT_APP;
import static dev.hexaflow.application.annotations.AnnotationBed.COMPLETION_APP;
import static dev.hexaflow.application.annotations.AnnotationBed.FLOW_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.AnnotationCommand;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.AnnotationPage;
import dev.hexaflow.application.annotations.port.in.ManageAnnotationsUseCase.ListAnnotationsQuery;
import dev.hexaflow.application.annotations.service.ManageAnnotationsService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import java.time.Duration;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * An app's annotations as Dify's Service API manages them: added with no hits, listed newest first a page at a
 * time (Dify's paging: a page under 1 is the first, a limit under 1 is 20, past 100 is 100, has_more when the page
 * is as full as asked), searched by a keyword, changed and removed; another app's annotation is not found; the
 * question and answer are held to Dify's lengths; only chat apps have annotations.
 */
class ManageAnnotationsServiceTest {

    private final AnnotationBed bed = new AnnotationBed();
    private final ManageAnnotationsService manage = bed.manage;

    private Annotation add(String appId, String question, String answer) {
        Annotation added = manage.create(new AnnotationCommand(appId, question, answer));
        bed.clock.advance(Duration.ofSeconds(1));
        return added;
    }

    @Test
    void anAnnotationIsAddedWithNoHitsAtTheClocksTime() {
        Annotation added = add(CHAT_APP, "What are your hours?", "9 to 5");

        assertThat(added.question()).isEqualTo("What are your hours?");
        assertThat(added.answer()).isEqualTo("9 to 5");
        assertThat(added.hitCount()).isZero();
        assertThat(added.createdAt()).isEqualTo(1_000);
        assertThat(UUID.fromString(added.id()).toString()).isEqualTo(added.id());
        assertThat(bed.annotations.find(CHAT_APP, added.id())).contains(added);
    }

    @Test
    void pagesComeNewestFirstAsDifyPagesThem() {
        for (int i = 1; i <= 25; i++) {
            add(CHAT_APP, "question " + i, "answer " + i);
        }

        AnnotationPage first = manage.list(new ListAnnotationsQuery(CHAT_APP, 1, 10, null));
        AnnotationPage last = manage.list(new ListAnnotationsQuery(CHAT_APP, 3, 10, ""));

        assertThat(first.data()).extracting(Annotation::question).startsWith("question 25", "question 24");
        assertThat(first.data()).hasSize(10);
        assertThat(first.hasMore()).isTrue();
        assertThat(first.total()).isEqualTo(25);
        assertThat(first.page()).isEqualTo(1);
        assertThat(first.limit()).isEqualTo(10);
        assertThat(last.data()).extracting(Annotation::question).containsExactly("question 5", "question 4",
                "question 3", "question 2", "question 1");
        assertThat(last.hasMore()).isFalse();
        assertThat(manage.list(new ListAnnotationsQuery(CHAT_APP, 9, 10, "")).data()).isEmpty();
    }

    @Test
    void aPageUnderOneIsTheFirstALimitUnderOneIsTwentyAndTheLimitAsAskedIsAnswered() {
        for (int i = 1; i <= 25; i++) {
            add(CHAT_APP, "question " + i, "answer " + i);
        }

        AnnotationPage zero = manage.list(new ListAnnotationsQuery(CHAT_APP, 0, 0, ""));

        assertThat(zero.data()).hasSize(20);
        assertThat(zero.data().get(0).question()).isEqualTo("question 25");
        assertThat(zero.limit()).isZero();
        assertThat(zero.page()).isZero();
        assertThat(zero.hasMore()).isFalse();
        assertThat(manage.list(new ListAnnotationsQuery(CHAT_APP, Integer.MAX_VALUE, 100, "")).data()).isEmpty();
    }

    @Test
    void aLimitPastOneHundredIsHeldToOneHundred() {
        for (int i = 1; i <= 101; i++) {
            bed.annotations.add(new Annotation(UUID.randomUUID().toString(), CHAT_APP, "q" + i, "a" + i, 0, i));
        }

        AnnotationPage page = manage.list(new ListAnnotationsQuery(CHAT_APP, 1, 101, ""));

        assertThat(page.data()).hasSize(100);
        assertThat(page.total()).isEqualTo(101);
        // Dify's has_more compares the page with the limit asked, not the one it held it to.
        assertThat(page.hasMore()).isFalse();
        assertThat(page.limit()).isEqualTo(101);
    }

    @Test
    void aKeywordFindsTheQuestionOrTheAnswerInAnyCase() {
        add(CHAT_APP, "Where is the office?", "Paris");
        add(CHAT_APP, "Phone?", "Call the OFFICE");
        add(CHAT_APP, "Hours?", "9 to 5");
        add(AGENT_APP, "office", "office");

        AnnotationPage found = manage.list(new ListAnnotationsQuery(CHAT_APP, 1, 20, "Office"));

        assertThat(found.data()).extracting(Annotation::question).containsExactly("Phone?", "Where is the office?");
        assertThat(found.total()).isEqualTo(2);
    }

    @Test
    void anUpdateChangesTheQuestionAndAnswerAndKeepsTheHits() {
        Annotation added = add(CHAT_APP, "Hours?", "9 to 5");
        bed.annotations.hit(new AnnotationHit("h1", added.id(), CHAT_APP, "e-1",
                "hours", "api", 0.9, "m1", "Hours?", "9 to 5", 1_001));

        Annotation updated = manage.update(added.id(), new AnnotationCommand(CHAT_APP, "Opening hours?", "8 to 6"));

        assertThat(updated).isEqualTo(new Annotation(added.id(), CHAT_APP, "Opening hours?", "8 to 6", 1,
                added.createdAt()));
        assertThat(bed.annotations.find(CHAT_APP, added.id())).contains(updated);
    }

    @Test
    void aDeleteRemovesTheAnnotationAndASecondFindsNothing() {
        Annotation added = add(CHAT_APP, "Hours?", "9 to 5");

        manage.delete(CHAT_APP, added.id());

        assertThat(bed.annotations.find(CHAT_APP, added.id())).isEmpty();
        assertRefused(() -> manage.delete(CHAT_APP, added.id()), ApiError.NOT_FOUND, "Annotation not found");
    }

    @Test
    void anotherAppsOrAnUnknownAnnotationIsNotFoundAndLeftAlone() {
        Annotation agents = add(AGENT_APP, "Hours?", "9 to 5");

        assertRefused(() -> manage.update(agents.id(), new AnnotationCommand(CHAT_APP, "mine", "mine")),
                ApiError.NOT_FOUND, "Annotation not found");
        assertRefused(() -> manage.delete(CHAT_APP, agents.id()), ApiError.NOT_FOUND, "Annotation not found");
        assertRefused(() -> manage.delete(CHAT_APP, UUID.randomUUID().toString()), ApiError.NOT_FOUND,
                "Annotation not found");
        assertRefused(() -> manage.delete(CHAT_APP, "not-a-uuid"), ApiError.NOT_FOUND,
                "The requested URL was not found on the server.");
        assertThat(bed.annotations.find(AGENT_APP, agents.id())).contains(agents);
    }

    @Test
    void aMissingEmptyOrTooLongQuestionOrAnswerIsRefused() {
        assertRefused(() -> add(CHAT_APP, null, "a"), ApiError.INVALID_PARAM, "question is required");
        assertRefused(() -> add(CHAT_APP, "q", null), ApiError.INVALID_PARAM, "answer is required");
        assertRefused(() -> add(CHAT_APP, "  ", "a"), ApiError.INVALID_PARAM, "question must not be empty");
        assertRefused(() -> add(CHAT_APP, "q".repeat(Annotation.MAX_QUESTION + 1), "a"), ApiError.INVALID_PARAM,
                "question is too long. Maximum 2000 characters allowed.");
        assertRefused(() -> add(CHAT_APP, "q", "a".repeat(Annotation.MAX_ANSWER + 1)), ApiError.INVALID_PARAM,
                "answer is too long. Maximum 10000 characters allowed.");
        Annotation longest = add(CHAT_APP, "q".repeat(Annotation.MAX_QUESTION), "a".repeat(Annotation.MAX_ANSWER));
        assertRefused(() -> manage.update(longest.id(), new AnnotationCommand(CHAT_APP, "q",
                "a".repeat(Annotation.MAX_ANSWER + 1))), ApiError.INVALID_PARAM,
                "answer is too long. Maximum 10000 characters allowed.");
        assertThat(manage.list(new ListAnnotationsQuery(CHAT_APP, 1, 20, "")).data()).containsExactly(longest);
    }

    @Test
    void onlyAChatAppHasAnnotations() {
        String refusal = "Please check if your app mode matches the right API route.";

        assertRefused(() -> add(FLOW_APP, "q", "a"), ApiError.NOT_CHAT_APP, refusal);
        assertRefused(() -> manage.list(new ListAnnotationsQuery(COMPLETION_APP, 1, 20, "")),
                ApiError.NOT_CHAT_APP, refusal);
        assertRefused(() -> manage.delete(FLOW_APP, UUID.randomUUID().toString()), ApiError.NOT_CHAT_APP,
                refusal);
        assertThat(add(AGENT_APP, "q", "a").appId()).isEqualTo(AGENT_APP);
    }

    private static void assertRefused(ThrowingCallable call, ApiError kind, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, refused -> {
            assertThat(refused.error()).isEqualTo(kind);
            assertThat(refused.getMessage()).isEqualTo(message);
        });
    }
}
