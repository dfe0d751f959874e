package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.ChatFixtures.ADA;
import static dev.hexaflow.adapters.persistence.ChatFixtures.BOB;
import static dev.hexaflow.adapters.persistence.ChatFixtures.CARL;
import static dev.hexaflow.adapters.persistence.ChatFixtures.conversation;
import static dev.hexaflow.adapters.persistence.ChatFixtures.like;
import static dev.hexaflow.adapters.persistence.ChatFixtures.message;
import static dev.hexaflow.adapters.persistence.ChatFixtures.variable;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.ChatFixtures.ChatStore;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.ConversationRepository.ConversationPage;
import dev.hexaflow.application.chat.port.out.ConversationRepository.ConversationQuery;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.ConversationSort;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link ConversationRepository} promises, with the end users of {@link ChatFixtures}. */
abstract class ConversationRepositoryContract {

    protected abstract ChatStore store();

    private ConversationRepository conversations() {
        return store().conversations();
    }

    @Test
    void aConversationAddedIsFoundAsItWasByItsAppAndEndUserOnly() {
        Conversation kept = conversation("c1", ADA, 100, 100);

        conversations().add(kept);

        assertThat(conversations().find(APP, ADA, "c1")).contains(kept);
        assertThat(conversations().find(APP, BOB, "c1")).isEmpty();
        assertThat(conversations().find(OTHER_APP, ADA, "c1")).isEmpty();
        assertThat(conversations().find(APP, ADA, "c2")).isEmpty();
    }

    @Test
    void anUpdateKeepsTheNewNameAndTimeAndNothingElse() {
        conversations().add(conversation("c1", ADA, 100, 100));

        conversations().update(conversations().find(APP, ADA, "c1").orElseThrow().renamed("Trip", 150));

        Conversation read = conversations().find(APP, ADA, "c1").orElseThrow();
        assertThat(read.name()).isEqualTo("Trip");
        assertThat(read.updatedAt()).isEqualTo(150);
        assertThat(read.createdAt()).isEqualTo(100);
        assertThat(read.inputs()).isEqualTo(Map.of("city", "Paris"));
    }

    @Test
    void updatingAConversationNeverAddedFails() {
        assertThatThrownBy(() -> conversations().update(conversation("ghost", ADA, 1, 1)))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void theListHoldsOnlyThisEndUsersConversationsWithThisApp() {
        conversations().add(conversation("c1", ADA, 100, 100));
        conversations().add(conversation("c2", BOB, 101, 101));
        conversations().add(conversation("c3", OTHER_APP, CARL, 102, 102));

        ConversationPage page = conversations().list(new ConversationQuery(APP, ADA, null, 20, null));

        assertThat(page.items()).extracting(Conversation::id).containsExactly("c1");
        assertThat(page.hasMore()).isFalse();
    }

    @Test
    void eachSortOrdersByItsTimeAndThenById() {
        conversations().add(conversation("c1", ADA, 100, 300));
        conversations().add(conversation("c2", ADA, 200, 250));
        conversations().add(conversation("c3", ADA, 200, 200));

        assertThat(ids(ConversationSort.UPDATED_AT_DESC)).containsExactly("c1", "c2", "c3");
        assertThat(ids(ConversationSort.UPDATED_AT)).containsExactly("c3", "c2", "c1");
        assertThat(ids(ConversationSort.CREATED_AT)).containsExactly("c1", "c2", "c3");
        assertThat(ids(ConversationSort.CREATED_AT_DESC)).containsExactly("c3", "c2", "c1");
    }

    @Test
    void pagesAfterTheLastConversationNeitherSkipNorRepeatConversationsOfTheSameSecond() {
        for (int i = 0; i < 7; i++) {
            conversations().add(conversation("c" + i, ADA, 100, i < 5 ? 100 : 200));
        }

        List<String> seen = new ArrayList<>();
        List<Boolean> more = new ArrayList<>();
        Conversation after = null;
        do {
            ConversationPage page = conversations().list(new ConversationQuery(APP, ADA, after, 3,
                    ConversationSort.UPDATED_AT_DESC));
            page.items().forEach(conversation -> seen.add(conversation.id()));
            more.add(page.hasMore());
            after = page.items().get(page.items().size() - 1);
        } while (more.get(more.size() - 1));

        assertThat(seen).containsExactly("c6", "c5", "c4", "c3", "c2", "c1", "c0");
        assertThat(more).containsExactly(true, true, false);
    }

    @Test
    void aFullLastPageSaysNoMoreFollow() {
        conversations().add(conversation("c1", ADA, 100, 100));
        conversations().add(conversation("c2", ADA, 100, 101));

        assertThat(conversations().list(new ConversationQuery(APP, ADA, null, 2, null)).hasMore()).isFalse();
        assertThat(conversations().list(new ConversationQuery(APP, ADA, null, 1, null)).hasMore()).isTrue();
    }

    @Test
    void deletingAConversationDeletesItsMessagesTheirFeedbackAndItsVariablesAndNothingElse() {
        Conversation gone = conversation("c1", ADA, 100, 100);
        Conversation kept = conversation("c2", ADA, 100, 100);
        conversations().add(gone);
        conversations().add(kept);
        Message goneMessage = message("m1", gone, 100);
        Message keptMessage = message("m2", kept, 100);
        store().messages().add(goneMessage);
        store().messages().add(keptMessage);
        store().messages().setFeedback(like("f1", goneMessage, 101));
        store().messages().setFeedback(like("f2", keptMessage, 101));
        store().variables().addAll(List.of(variable("c1", "v1", "topic", "x", 0, 100),
                variable("c2", "v1", "topic", "y", 0, 100)));

        boolean deleted = conversations().delete(APP, ADA, "c1");

        assertThat(deleted).isTrue();
        assertThat(conversations().find(APP, ADA, "c1")).isEmpty();
        assertThat(store().messages().find(APP, ADA, "m1")).isEmpty();
        assertThat(store().messages().findFeedback("m1", FeedbackSource.USER)).isEmpty();
        assertThat(store().messages().feedbacks(APP, 1, 20)).extracting(f -> f.id()).containsExactly("f2");
        assertThat(store().variables().all("c1")).isEmpty();
        assertThat(store().messages().find(APP, ADA, "m2")).isPresent();
        assertThat(store().variables().all("c2")).hasSize(1);
    }

    @Test
    void anotherEndUserOrAppCannotDeleteAConversation() {
        conversations().add(conversation("c1", ADA, 100, 100));

        assertThat(conversations().delete(APP, BOB, "c1")).isFalse();
        assertThat(conversations().delete(OTHER_APP, ADA, "c1")).isFalse();

        assertThat(conversations().find(APP, ADA, "c1")).isPresent();
    }

    private List<String> ids(ConversationSort sort) {
        return conversations().list(new ConversationQuery(APP, ADA, null, 20, sort)).items().stream()
                .map(Conversation::id).toList();
    }
}
