package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationHit;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import org.junit.jupiter.api.Test;

/**
 * What every {@link AnnotationRepository} promises; each adapter runs it by extending this class. An app sees only
 * its own annotations; pages come newest first with the count of all that match, a keyword matching the question
 * or the answer in any case (its LIKE characters taken as text); a hit counts itself and is kept in the history; a
 * removed annotation takes its hits with it; a setting is replaced whole and removed.
 */
abstract class AnnotationRepositoryContract {

    protected abstract AnnotationRepository repository();

    private Annotation added(String id, String appId, String question, String answer, long createdAt) {
        Annotation annotation = new Annotation(id, appId, question, answer, 0, createdAt);
        repository().add(annotation);
        return annotation;
    }

    @Test
    void anAnnotationIsFoundWholeByItsAppAlone() {
        // The longest question and answer the use cases take, in characters that take more than one byte.
        Annotation kept = added("a1", APP, "é".repeat(Annotation.MAX_QUESTION), "営".repeat(Annotation.MAX_ANSWER),
                10);

        assertThat(repository().find(APP, "a1")).contains(kept);
        assertThat(repository().find(OTHER_APP, "a1")).isEmpty();
        assertThat(repository().find(APP, "a2")).isEmpty();
    }

    @Test
    void anEditKeepsTheHitsAndAgeAndTouchesNoOtherApp() {
        added("a1", APP, "hours?", "9 to 5", 10);
        repository().hit(hit("h1", "a1", APP, 20));

        repository().edit(new Annotation("a1", APP, "opening hours?", "8 to 6", 0, 99));
        repository().edit(new Annotation("a1", OTHER_APP, "stolen", "stolen", 0, 99));

        assertThat(repository().find(APP, "a1")).contains(new Annotation("a1", APP, "opening hours?", "8 to 6", 1, 10));
    }

    @Test
    void pagesComeNewestFirstWithTheTotal() {
        for (int i = 1; i <= 5; i++) {
            added("a" + i, APP, "question " + i, "answer " + i, 100 + i);
        }
        added("b1", APP, "same second", "x", 105);
        added("o1", OTHER_APP, "question 9", "answer 9", 200);

        AnnotationRepository.Page first = repository().page(APP, "", 0, 4);
        AnnotationRepository.Page last = repository().page(APP, "", 4, 4);

        assertThat(first.items()).extracting(Annotation::id).containsExactly("b1", "a5", "a4", "a3");
        assertThat(first.total()).isEqualTo(6);
        assertThat(last.items()).extracting(Annotation::id).containsExactly("a2", "a1");
        assertThat(repository().page(APP, "", 40, 4).items()).isEmpty();
    }

    @Test
    void aKeywordMatchesTheQuestionOrTheAnswerInAnyCaseAndItsWildcardsAsText() {
        added("a1", APP, "Where is the OFFICE?", "Paris", 1);
        added("a2", APP, "Phone?", "Call the office", 2);
        added("a3", APP, "Discount of 100%?", "No", 3);
        added("a4", APP, "Discount of 1000?", "No_way", 4);
        added("o1", OTHER_APP, "office", "office", 5);

        assertThat(repository().page(APP, "office", 0, 20).items()).extracting(Annotation::id)
                .containsExactly("a2", "a1");
        assertThat(repository().page(APP, "office", 0, 20).total()).isEqualTo(2);
        assertThat(repository().page(APP, "100%", 0, 20).items()).extracting(Annotation::id).containsExactly("a3");
        assertThat(repository().page(APP, "o_w", 0, 20).items()).extracting(Annotation::id).containsExactly("a4");
        assertThat(repository().page(APP, "nothing", 0, 20).total()).isZero();
    }

    @Test
    void aHitCountsAndIsKeptNewestFirst() {
        added("a1", APP, "hours?", "9 to 5", 10);
        AnnotationHit first = hit("h1", "a1", APP, 20);
        AnnotationHit second = hit("h2", "a1", APP, 30);

        repository().hit(first);
        repository().hit(second);

        assertThat(repository().find(APP, "a1").orElseThrow().hitCount()).isEqualTo(2);
        assertThat(repository().hits(APP, "a1")).containsExactly(second, first);
        assertThat(repository().hits(OTHER_APP, "a1")).isEmpty();
    }

    @Test
    void aRemovalTakesTheHitsAndIsTheAppsAlone() {
        added("a1", APP, "hours?", "9 to 5", 10);
        repository().hit(hit("h1", "a1", APP, 20));

        assertThat(repository().remove(OTHER_APP, "a1")).isFalse();
        assertThat(repository().find(APP, "a1")).isPresent();
        assertThat(repository().remove(APP, "a1")).isTrue();
        assertThat(repository().remove(APP, "a1")).isFalse();
        assertThat(repository().find(APP, "a1")).isEmpty();
        assertThat(repository().hits(APP, "a1")).isEmpty();
        assertThat(repository().all(APP)).isEmpty();
    }

    @Test
    void allListsTheAppsAnnotationsNewestFirst() {
        added("a1", APP, "one", "1", 1);
        added("a2", APP, "two", "2", 2);
        added("o1", OTHER_APP, "three", "3", 3);

        assertThat(repository().all(APP)).extracting(Annotation::id).containsExactly("a2", "a1");
    }

    @Test
    void aSettingIsReplacedWholeAndRemoved() {
        repository().saveSetting(new AnnotationSetting(APP, 0.9, "openai", "text-embedding-3-small", 10));
        repository().saveSetting(new AnnotationSetting(APP, 0.75, "cohere", "embed-v3", 20));

        assertThat(repository().setting(APP)).contains(new AnnotationSetting(APP, 0.75, "cohere", "embed-v3", 20));
        assertThat(repository().setting(OTHER_APP)).isEmpty();
        repository().removeSetting(APP);
        repository().removeSetting(APP);
        assertThat(repository().setting(APP)).isEmpty();
    }

    private static AnnotationHit hit(String id, String annotationId, String appId, long createdAt) {
        return new AnnotationHit(id, annotationId, appId, "user-1", "what are the hours", "api", 0.87, "m-" + id,
                "hours?", "9 to 5", createdAt);
    }
}
