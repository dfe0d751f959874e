package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.BOB;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ChatBed.FLOW_APP;
import static dev.hexaflow.application.chat.ConversationUseCasesTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase.DeleteConversationCommand;
import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase.GiveFeedbackCommand;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase.ConversationList;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageList;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.service.BrowseConversationsService;
import dev.hexaflow.application.chat.service.DeleteConversationService;
import dev.hexaflow.application.chat.service.GiveFeedbackService;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.FeedbackRating;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFile;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The operator's view of a chatflow's conversations: every end user's, read with the admin token. */
class BrowseConversationsUseCaseTest {

    private final ChatBed bed = new ChatBed();
    private final BrowseConversationsService browse = new BrowseConversationsService(bed.access, bed.conversations,
            bed.messages, bed.signatures);

    /** Ada's c1, Bob's b1 ten seconds later, Ada's c2 ten seconds after that. */
    private void threeConversations() {
        bed.conversation("c1", ADA, "ada's first");
        bed.clock.advance(10);
        bed.conversation("b1", BOB, "bob's");
        bed.clock.advance(10);
        bed.conversation("c2", ADA, "ada's second");
    }

    @Test
    void theOperatorSeesEveryEndUsersConversationsNewestFirstAPageAtATime() {
        threeConversations();

        ConversationList first = browse.conversations(CHAT_APP, null, null, 2);
        // The operator may page on from another end user's conversation: the list is everyone's.
        ConversationList next = browse.conversations(CHAT_APP, null, "b1", 2);

        assertThat(first.data()).extracting(Conversation::id).containsExactly("c2", "b1");
        assertThat(first.hasMore()).isTrue();
        assertThat(next.data()).extracting(Conversation::id).containsExactly("c1");
        assertThat(next.hasMore()).isFalse();
    }

    @Test
    void aUserNarrowsTheListToTheirsAndAUserNeverMetHasNone() {
        threeConversations();

        assertThat(browse.conversations(CHAT_APP, BOB, null, 20).data()).extracting(Conversation::id)
                .containsExactly("b1");
        assertThat(browse.conversations(CHAT_APP, "", null, 20).data()).hasSize(3);
        assertThat(browse.conversations(CHAT_APP, "nobody", null, 20).data()).isEmpty();
        // Reading is no meeting: the stranger is not made an end user of the app.
        assertThat(bed.endUsers.find(CHAT_APP, "nobody")).isEmpty();
    }

    @Test
    void aRenamedConversationComesFirstAsItChangedLast() {
        threeConversations();
        bed.clock.advance(10);
        new RenameConversationService(bed.access, bed.conversations, bed.messages, bed.systemModel, bed.clock)
                .rename(new RenameConversationCommand(CHAT_APP, ADA, "c1", "Renamed", false));

        assertThat(browse.conversations(CHAT_APP, null, null, 20).data()).extracting(Conversation::id)
                .containsExactly("c1", "c2", "b1");
    }

    @Test
    void aLastIdOfAnotherAppOrOfNoConversationIsNotFound() {
        threeConversations();
        bed.conversations.add(Conversation.start("f1", FLOW_APP, "e-flow", "elsewhere", Map.of(), "",
                bed.clock.instant().getEpochSecond()));

        assertRefused(() -> browse.conversations(CHAT_APP, null, "f1", 20), ApiError.NOT_FOUND,
                "Last Conversation Not Exists.");
        assertRefused(() -> browse.conversations(CHAT_APP, null, "no-such", 20), ApiError.NOT_FOUND,
                "Last Conversation Not Exists.");
    }

    @Test
    void aLimitOutOfRangeAWorkflowAppOrAnUnknownAppIsRefused() {
        assertRefused(() -> browse.conversations(CHAT_APP, null, null, 0), ApiError.INVALID_PARAM,
                "limit must be between 1 and 100");
        assertRefused(() -> browse.conversations(CHAT_APP, null, null, 101), ApiError.INVALID_PARAM,
                "limit must be between 1 and 100");
        assertRefused(() -> browse.conversations(FLOW_APP, null, null, 20), ApiError.NOT_CHAT_APP,
                "Please check if your app mode matches the right API route.");
        assertRefused(() -> browse.messages(FLOW_APP, "c1", null, 20), ApiError.NOT_CHAT_APP,
                "Please check if your app mode matches the right API route.");
        assertRefused(() -> browse.conversations("app-none", null, null, 20), ApiError.NOT_FOUND,
                "App not found.");
    }

    @Test
    void aConversationDeletedByItsUserLeavesTheOperatorsListToo() {
        threeConversations();

        new DeleteConversationService(bed.access, bed.conversations)
                .delete(new DeleteConversationCommand(CHAT_APP, BOB, "b1"));

        assertThat(browse.conversations(CHAT_APP, null, null, 20).data()).extracting(Conversation::id)
                .containsExactly("c2", "c1");
        assertRefused(() -> browse.messages(CHAT_APP, "b1", null, 20), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
    }

    @Test
    void theOperatorReadsAnyUsersMessagesWithTheirFeedbackAPageAtATime() {
        Conversation bobs = bed.conversation("b1", BOB, "q1");
        for (int i = 1; i <= 3; i++) {
            bed.turn("m" + i, bobs, "q" + i, "a" + i);
            bed.clock.advance(1);
        }
        new GiveFeedbackService(bed.access, bed.messages, bed.clock, bed.ids)
                .give(new GiveFeedbackCommand(CHAT_APP, BOB, "m3", "dislike", "off topic"));

        MessageList newest = browse.messages(CHAT_APP, "b1", null, 2);
        MessageList older = browse.messages(CHAT_APP, "b1", "m2", 2);

        assertThat(newest.data()).extracting(item -> item.message().id()).containsExactly("m2", "m3");
        assertThat(newest.hasMore()).isTrue();
        assertThat(newest.data().get(0).feedback()).isNull();
        assertThat(newest.data().get(1).feedback().rating()).isEqualTo(FeedbackRating.DISLIKE);
        assertThat(older.data()).extracting(item -> item.message().id()).containsExactly("m1");
        assertThat(older.hasMore()).isFalse();
    }

    @Test
    void messagesOfAnotherAppsConversationOrAFirstIdOfAnotherConversationAreNotFound() {
        Conversation adas = bed.conversation("c1", ADA, "q1");
        bed.turn("m1", adas, "q1", "a1");
        Conversation bobs = bed.conversation("b1", BOB, "q2");
        bed.turn("m2", bobs, "q2", "a2");
        bed.conversations.add(Conversation.start("f1", FLOW_APP, "e-flow", "elsewhere", Map.of(), "", 1));

        assertRefused(() -> browse.messages(CHAT_APP, "f1", null, 20), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
        assertRefused(() -> browse.messages(CHAT_APP, "c1", "m2", 20), ApiError.NOT_FOUND,
                "First Message Not Exists.");
        assertRefused(() -> browse.messages(CHAT_APP, "c1", null, 101), ApiError.INVALID_PARAM,
                "limit must be between 1 and 100");
    }

    @Test
    void aMessagesUploadIsShownAtAUrlSignedAsTheOperatorReadsIt() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        MessageFile upload = new MessageFile("f1", "notes.txt", "document", "/files/up1/file-preview",
                "text/plain", 12, "local_file", "user", "up1");
        bed.messages.add(Message.started("m1", chat.id(), CHAT_APP, chat.endUserId(), null, Map.of(), "q1",
                List.of(upload), "run-m1", null, bed.clock.instant().getEpochSecond()));
        // Long past the access timeout: a URL signed with the turn would no longer serve.
        bed.clock.advance(FileSignatures.ACCESS_TIMEOUT.toSeconds() * 10);

        String url = browse.messages(CHAT_APP, "c1", null, 20).data().get(0).message().files().get(0).url();

        Map<String, String> params = new HashMap<>();
        for (String pair : url.substring(url.indexOf('?') + 1).split("&")) {
            params.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        assertThat(url).startsWith("/files/up1/file-preview?");
        assertThat(params.get("timestamp")).isEqualTo(String.valueOf(bed.clock.instant().getEpochSecond()));
        assertThat(bed.signatures.valid("up1", params.get("timestamp"), params.get("nonce"), params.get("sign")))
                .isTrue();
    }
}
