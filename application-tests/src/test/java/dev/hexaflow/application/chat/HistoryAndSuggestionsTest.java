package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ChatBed.FLOW_APP;
import static dev.hexaflow.application.chat.ConversationUseCasesTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase.GiveFeedbackCommand;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.ListMessagesQuery;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageList;
import dev.hexaflow.application.chat.port.in.SuggestQuestionsUseCase.SuggestQuestionsQuery;
import dev.hexaflow.application.chat.service.GiveFeedbackService;
import dev.hexaflow.application.chat.service.ListMessagesService;
import dev.hexaflow.application.chat.service.SuggestQuestionsService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.FeedbackRating;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A conversation's history at the edges of its pages, and the questions suggested after an answer. */
class HistoryAndSuggestionsTest {

    private final ChatBed bed = new ChatBed();
    private final ListMessagesService history = new ListMessagesService(bed.access, bed.messages, bed.signatures);
    private final SuggestQuestionsService suggest = new SuggestQuestionsService(bed.access, bed.messages,
            bed.systemModel);

    private MessageList page(String firstId, int limit) {
        return history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", firstId, limit));
    }

    private static List<String> ids(MessageList list) {
        return list.data().stream().map(item -> item.message().id()).toList();
    }

    /** Ada's conversation c1 with {@code count} turns m1.., a second apart. */
    private Conversation turns(int count) {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        for (int i = 1; i <= count; i++) {
            bed.turn("m" + i, chat, "q" + i, "a" + i);
            bed.clock.advance(1);
        }
        return chat;
    }

    @Test
    void aConversationWithoutTurnsHasAnEmptyHistory() {
        bed.conversation("c1", ADA, "q1");

        MessageList empty = page(null, 20);

        assertThat(empty.data()).isEmpty();
        assertThat(empty.hasMore()).isFalse();
        assertThat(empty.limit()).isEqualTo(20);
    }

    @Test
    void aPageExactlyFullSaysNoMoreFollowAndAHundredIsTheLargestPage() {
        turns(3);

        assertThat(page(null, 3).hasMore()).isFalse();
        assertThat(ids(page(null, 100))).containsExactly("m1", "m2", "m3");
        assertRefused(() -> page(null, 101), ApiError.INVALID_PARAM, "limit must be between 1 and 100");
    }

    @Test
    void turnsTakenInTheSameSecondAreOrderedByIdAndPagedWithoutLoss() {
        Conversation chat = bed.conversation("c1", ADA, "q");
        bed.turn("m-b", chat, "q", "a");
        bed.turn("m-a", chat, "q", "a");
        bed.turn("m-c", chat, "q", "a");

        assertThat(ids(page(null, 2))).containsExactly("m-b", "m-c");
        assertThat(ids(page("m-b", 2))).containsExactly("m-a");
    }

    @Test
    void aFirstIdFromAnotherConversationIsNotFoundAndAWorkflowAppIsRefused() {
        turns(1);
        bed.turn("other", bed.conversation("c2", ADA, "q"), "q", "a");

        assertRefused(() -> page("other", 20), ApiError.NOT_FOUND, "First Message Not Exists.");
        assertRefused(() -> history.list(new ListMessagesQuery(FLOW_APP, ADA, "c1", null, 20)),
                ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API route.");
    }

    @Test
    void eachMessageShowsItsOwnRatingOnly() {
        turns(2);
        new GiveFeedbackService(bed.access, bed.messages, bed.clock, bed.ids)
                .give(new GiveFeedbackCommand(CHAT_APP, ADA, "m1", "like", null));

        MessageList listed = page(null, 20);

        assertThat(listed.data().get(0).feedback().rating()).isEqualTo(FeedbackRating.LIKE);
        assertThat(listed.data().get(1).feedback()).isNull();
    }

    @Test
    void aStrangersHistoryIsNotFoundAndTheyAreNotMadeAnEndUser() {
        turns(1);

        assertRefused(() -> history.list(new ListMessagesQuery(CHAT_APP, "nobody", "c1", null, 20)),
                ApiError.NOT_FOUND, "Conversation Not Exists.");
        assertThat(bed.endUsers.find(CHAT_APP, "nobody")).isEmpty();
    }

    @Test
    void suggestionsAfterAnOlderAnswerStillFollowTheConversationsLatestTurns() {
        turns(4);
        bed.model.answers("[\"Next?\"]");

        assertThat(suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"))).containsExactly("Next?");
        // As Dify's memory: the conversation's newest turns, whichever answer the questions follow.
        assertThat(bed.model.requests.get(0).messages().get(0).text()).startsWith("Human: q2\nAssistant: a2\n"
                + "Human: q3\nAssistant: a3\nHuman: q4\nAssistant: a4\nPlease help");
    }

    @Test
    void aListWithItemsThatAreNotTextKeepsOnlyTheTexts() {
        turns(1);
        bed.model.answers("[\"Why?\", 3, null, {\"q\": \"no\"}, \"How?\"]");

        assertThat(suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"))).containsExactly("Why?", "How?");
    }

    @Test
    void aChatflowWithoutAnLlmNodeAsksTheServersModelAndNoModelSuggestsNothing() {
        turns(1);
        bed.llmNode = false;
        bed.model.answers("[\"Why?\"]");

        assertThat(suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"))).containsExactly("Why?");
        assertThat(bed.model.requests.get(0).provider()).isEqualTo("openai");
        assertThat(bed.model.requests.get(0).model()).isEqualTo("gpt-fallback");
        bed.model.configured = false;
        assertThat(suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"))).isEmpty();
        assertThat(bed.model.requests).hasSize(1);
    }

    @Test
    void suggestionsInAWorkflowAppOrAfterAnUnknownMessageAreRefused() {
        turns(1);

        assertRefused(() -> suggest.suggest(new SuggestQuestionsQuery(FLOW_APP, ADA, "m1")), ApiError.NOT_CHAT_APP,
                "Please check if your app mode matches the right API route.");
        assertRefused(() -> suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m9")), ApiError.NOT_FOUND,
                "Message Not Exists.");
        assertRefused(() -> suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, "nobody", "m1")),
                ApiError.NOT_FOUND, "Message Not Exists.");
        assertThat(bed.model.requests).isEmpty();
    }
}
