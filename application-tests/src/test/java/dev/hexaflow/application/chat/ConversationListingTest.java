package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ConversationUseCasesTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase.DeleteConversationCommand;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ConversationList;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ListConversationsQuery;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.service.DeleteConversationService;
import dev.hexaflow.application.chat.service.ListConversationsService;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.chat.Conversation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An end user's conversations in each of Dify's orders (sort_by), paged with last_id. */
class ConversationListingTest {

    private final ChatBed bed = new ChatBed();
    private final ListConversationsService list = new ListConversationsService(bed.access, bed.conversations);
    private final RenameConversationService rename = new RenameConversationService(bed.access, bed.conversations,
            bed.messages, bed.systemModel, bed.clock);

    /** c1 begun first, c2 ten seconds later, then c1 renamed ten seconds after that: c1 changed last. */
    private void olderOneChangedLast() {
        bed.conversation("c1", ADA, "first");
        bed.clock.advance(10);
        bed.conversation("c2", ADA, "second");
        bed.clock.advance(10);
        rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", "Renamed", false));
    }

    private List<String> ids(String sortBy) {
        return list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 20, sortBy)).data().stream()
                .map(Conversation::id).toList();
    }

    @Test
    void byDefaultAndByMinusUpdatedAtTheConversationChangedLastComesFirst() {
        olderOneChangedLast();

        assertThat(ids(null)).containsExactly("c1", "c2");
        assertThat(ids("")).containsExactly("c1", "c2");
        assertThat(ids("-updated_at")).containsExactly("c1", "c2");
    }

    @Test
    void updatedAtListsTheConversationChangedLongestAgoFirst() {
        olderOneChangedLast();

        assertThat(ids("updated_at")).containsExactly("c2", "c1");
    }

    @Test
    void createdAtOrdersByWhenTheyBeganWhateverChangedSince() {
        olderOneChangedLast();

        assertThat(ids("created_at")).containsExactly("c1", "c2");
        assertThat(ids("-created_at")).containsExactly("c2", "c1");
    }

    @Test
    void pagingInAnAscendingOrderContinuesAfterTheLastId() {
        for (int i = 1; i <= 3; i++) {
            bed.conversation("c" + i, ADA, "q" + i);
            bed.clock.advance(5);
        }

        ConversationList first = list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 2, "created_at"));
        ConversationList next = list.list(new ListConversationsQuery(CHAT_APP, ADA, "c2", 2, "created_at"));

        assertThat(first.data()).extracting(Conversation::id).containsExactly("c1", "c2");
        assertThat(first.hasMore()).isTrue();
        assertThat(next.data()).extracting(Conversation::id).containsExactly("c3");
        assertThat(next.hasMore()).isFalse();
    }

    @Test
    void conversationsBegunInTheSameSecondArePagedOneByOneWithoutSkippingOrRepeatingAny() {
        bed.conversation("c-b", ADA, "b");
        bed.conversation("c-a", ADA, "a");
        bed.conversation("c-c", ADA, "c");

        List<String> seen = new ArrayList<>();
        String lastId = null;
        ConversationList page;
        do {
            page = list.list(new ListConversationsQuery(CHAT_APP, ADA, lastId, 1, null));
            page.data().forEach(conversation -> seen.add(conversation.id()));
            lastId = page.data().isEmpty() ? lastId : page.data().get(0).id();
        } while (page.hasMore() && seen.size() < 10);

        // Same time, so the id decides, in the order's direction.
        assertThat(seen).containsExactly("c-c", "c-b", "c-a");
    }

    @Test
    void aPageExactlyFullSaysNoMoreFollowAndAHundredIsTheLargestPage() {
        bed.conversation("c1", ADA, "first");
        bed.conversation("c2", ADA, "second");

        ConversationList full = list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 2, null));
        ConversationList largest = list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 100, null));

        assertThat(full.data()).hasSize(2);
        assertThat(full.hasMore()).isFalse();
        assertThat(largest.data()).hasSize(2);
        assertThat(largest.limit()).isEqualTo(100);
        assertRefused(() -> list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 0, null)),
                ApiError.INVALID_PARAM, "limit must be between 1 and 100");
    }

    @Test
    void aLastIdOfADeletedConversationIsNotFound() {
        bed.conversation("c1", ADA, "first");
        bed.conversation("c2", ADA, "second");
        new DeleteConversationService(bed.access, bed.conversations)
                .delete(new DeleteConversationCommand(CHAT_APP, ADA, "c2"));

        assertRefused(() -> list.list(new ListConversationsQuery(CHAT_APP, ADA, "c2", 20, null)),
                ApiError.NOT_FOUND, "Last Conversation Not Exists.");
    }

    @Test
    void aUserNeverMetWhoPagesOnIsToldTheLastIsMissingAndAnUnknownAppIsNotFound() {
        bed.conversation("c1", ADA, "first");

        // As Dify answers: a stranger's last_id cannot be one of theirs.
        assertRefused(() -> list.list(new ListConversationsQuery(CHAT_APP, "nobody", "c1", 20, null)),
                ApiError.NOT_FOUND, "Last Conversation Not Exists.");
        assertRefused(() -> list.list(new ListConversationsQuery("app-none", ADA, null, 20, null)),
                ApiError.NOT_FOUND, "App not found.");
    }
}
