package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.BOB;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ChatBed.FLOW_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase.DeleteConversationCommand;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ConversationList;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ListConversationsQuery;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.service.DeleteConversationService;
import dev.hexaflow.application.chat.service.ListConversationsService;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.chat.Conversation;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Listing, deleting and renaming conversations, on the in-memory repositories and a fake model port. */
class ConversationUseCasesTest {

    private final ChatBed bed = new ChatBed();
    private final ListConversationsService list = new ListConversationsService(bed.access, bed.conversations);
    private final DeleteConversationService delete = new DeleteConversationService(bed.access, bed.conversations);
    private final RenameConversationService rename = new RenameConversationService(bed.access, bed.conversations,
            bed.messages, bed.systemModel, bed.clock);

    @Test
    void anEndUserListsOnlyTheirConversationsNewestChangeFirstAPageAtATime() {
        bed.conversation("c1", ADA, "first");
        bed.clock.advance(10);
        bed.conversation("c2", ADA, "second");
        bed.clock.advance(10);
        bed.conversation("c3", ADA, "third");
        bed.conversation("b1", BOB, "bob's");

        ConversationList first = list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 2, null));
        ConversationList next = list.list(new ListConversationsQuery(CHAT_APP, ADA, "c2", 2, null));

        assertThat(first.data()).extracting(Conversation::id).containsExactly("c3", "c2");
        assertThat(first.hasMore()).isTrue();
        assertThat(first.limit()).isEqualTo(2);
        assertThat(next.data()).extracting(Conversation::id).containsExactly("c1");
        assertThat(next.hasMore()).isFalse();
    }

    @Test
    void sortByPicksTheOrderAndAnUnknownOneIsRefused() {
        bed.conversation("c1", ADA, "first");
        bed.clock.advance(10);
        bed.conversation("c2", ADA, "second");

        assertThat(list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 20, "created_at")).data())
                .extracting(Conversation::id).containsExactly("c1", "c2");
        assertRefused(() -> list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 20, "name")),
                ApiError.INVALID_PARAM, "sort_by must be one of created_at, -created_at, updated_at, -updated_at");
        assertRefused(() -> list.list(new ListConversationsQuery(CHAT_APP, ADA, null, 101, null)),
                ApiError.INVALID_PARAM, "limit must be between 1 and 100");
    }

    @Test
    void aLastIdOfAnotherUsersConversationIsNotFoundAndAStrangerHasNoConversations() {
        bed.conversation("b1", BOB, "bob's");

        assertRefused(() -> list.list(new ListConversationsQuery(CHAT_APP, ADA, "b1", 20, null)),
                ApiError.NOT_FOUND, "Last Conversation Not Exists.");
        ConversationList stranger = list.list(new ListConversationsQuery(CHAT_APP, "nobody", null, 20, null));
        assertThat(stranger.data()).isEmpty();
        assertThat(bed.endUsers.find(CHAT_APP, "nobody")).isEmpty();
    }

    @Test
    void theChatUseCasesRefuseAWorkflowApp() {
        assertRefused(() -> list.list(new ListConversationsQuery(FLOW_APP, ADA, null, 20, null)),
                ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API route.");
        assertRefused(() -> delete.delete(new DeleteConversationCommand(FLOW_APP, ADA, "c1")),
                ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API route.");
    }

    @Test
    void aDeletedConversationIsGoneWithItsMessagesAndAnotherUsersIsNotFound() {
        Conversation chat = bed.conversation("c1", ADA, "hello");
        bed.turn("m1", chat, "hello", "hi");

        assertRefused(() -> delete.delete(new DeleteConversationCommand(CHAT_APP, BOB, "c1")), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
        delete.delete(new DeleteConversationCommand(CHAT_APP, ADA, "c1"));

        assertThat(bed.conversations.find(CHAT_APP, chat.endUserId(), "c1")).isEmpty();
        assertThat(bed.messages.count("c1")).isZero();
        assertRefused(() -> delete.delete(new DeleteConversationCommand(CHAT_APP, ADA, "c1")), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
    }

    @Test
    void aManualRenameKeepsTheNameAndCountsAsAChange() {
        bed.conversation("c1", ADA, "hello");
        bed.clock.advance(30);

        Conversation renamed = rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", "Trip", false));

        assertThat(renamed.name()).isEqualTo("Trip");
        assertThat(renamed.updatedAt()).isEqualTo(renamed.createdAt() + 30);
        assertThat(bed.conversations.find(CHAT_APP, renamed.endUserId(), "c1")).contains(renamed);
    }

    @Test
    void aManualRenameWithoutANameIsRefusedAndAnotherUsersConversationIsNotFound() {
        bed.conversation("c1", ADA, "hello");

        assertRefused(() -> rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", "  ", false)),
                ApiError.INVALID_PARAM, "name is required when auto_generate is false");
        assertRefused(() -> rename.rename(new RenameConversationCommand(CHAT_APP, BOB, "c1", "Mine", false)),
                ApiError.NOT_FOUND, "Conversation Not Exists.");
    }

    @Test
    void anAutomaticRenameAsksTheChatflowsModelWithDifysTitlePromptAndTakesYourOutput() {
        Conversation chat = bed.conversation("c1", ADA, "first line\nsecond line");
        bed.turn("m1", chat, "first line\nsecond line", "ok");
        bed.clock.advance(30);
        bed.model.answers("{\"Language Type\": \"English\", \"Your Reasoning\": \"...\", "
                + "\"Your Output\": \"  Two lines  \"}");

        Conversation renamed = rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", null, true));

        assertThat(renamed.name()).isEqualTo("Two lines");
        assertThat(renamed.updatedAt()).isEqualTo(chat.updatedAt());
        var request = bed.model.requests.get(0);
        assertThat(request.provider()).isEqualTo("langgenius/openai/openai");
        assertThat(request.model()).isEqualTo("gpt-4o");
        assertThat(request.parameters()).containsEntry("max_tokens", 500L).containsEntry("temperature", 1L);
        assertThat(request.messages()).hasSize(1);
        assertThat(request.messages().get(0).role()).isEqualTo("user");
        assertThat(request.messages().get(0).text())
                .startsWith("You are asked to generate a concise chat title")
                .endsWith("User Input:\nfirst line second line\n");
    }

    @Test
    void aTitleThatIsNoJsonObjectFallsBackToTheQueryAndALongOneIsCut() {
        Conversation chat = bed.conversation("c1", ADA, "plan my trip");
        bed.turn("m1", chat, "plan my trip", "ok");
        bed.model.answers("Sure! Here is a title: Trip planning");
        bed.model.answers("{\"Your Output\": \"" + "x".repeat(80) + "\"}");

        assertThat(rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", null, true)).name())
                .isEqualTo("plan my trip");
        assertThat(rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", null, true)).name())
                .isEqualTo("x".repeat(75) + "...");
    }

    @Test
    void aFailingOrMissingModelLeavesTheNameAsItWas() {
        Conversation chat = bed.conversation("c1", ADA, "plan my trip");
        bed.turn("m1", chat, "plan my trip", "ok");
        bed.model.fails();

        assertThat(rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", null, true)).name())
                .isEqualTo("plan my trip");
        bed.model.configured = false;
        assertThat(rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", null, true)).name())
                .isEqualTo("plan my trip");
        assertThat(bed.model.requests).hasSize(1);
    }

    @Test
    void anAutomaticRenameOfAConversationWithoutMessagesIsRefused() {
        bed.conversation("c1", ADA, "hello");

        assertRefused(() -> rename.rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", null, true)),
                ApiError.NOT_FOUND, "Message Not Exists.");
        assertThat(bed.model.requests).isEqualTo(List.of());
    }

    static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
