package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.BOB;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ChatBed.FLOW_APP;
import static dev.hexaflow.application.chat.ConversationUseCasesTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase.GiveFeedbackCommand;
import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase.ListAppFeedbacksQuery;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.ListMessagesQuery;
import dev.hexaflow.application.chat.service.GiveFeedbackService;
import dev.hexaflow.application.chat.service.ListAppFeedbacksService;
import dev.hexaflow.application.chat.service.ListMessagesService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.FeedbackRating;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.MessageFeedback;
import java.util.List;
import org.junit.jupiter.api.Test;

/** End users' ratings of answers, and the app's list of them, beyond the like/dislike/null basics. */
class FeedbackUseCasesTest {

    private final ChatBed bed = new ChatBed();
    private final GiveFeedbackService feedback = new GiveFeedbackService(bed.access, bed.messages, bed.clock,
            bed.ids);
    private final ListAppFeedbacksService feedbacks = new ListAppFeedbacksService(bed.access, bed.messages);

    private void rate(String user, String messageId, String rating, String content) {
        feedback.give(new GiveFeedbackCommand(CHAT_APP, user, messageId, rating, content));
    }

    private List<String> ratedMessages(int page, int limit) {
        return feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, page, limit)).stream()
                .map(MessageFeedback::messageId).toList();
    }

    @Test
    void theAppsFeedbacksAreListedNewestFirstAPageAtATime() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        for (int i = 1; i <= 3; i++) {
            bed.turn("m" + i, chat, "q" + i, "a" + i);
            rate(ADA, "m" + i, "like", null);
            bed.clock.advance(1);
        }

        assertThat(ratedMessages(1, 2)).containsExactly("m3", "m2");
        assertThat(ratedMessages(2, 2)).containsExactly("m1");
        assertThat(ratedMessages(3, 2)).isEmpty();
    }

    @Test
    void eachEndUserRatesOnlyTheirOwnAnswersAndTheAppListsEveryonesRatings() {
        bed.turn("m-ada", bed.conversation("c1", ADA, "q"), "q", "a");
        bed.turn("m-bob", bed.conversation("b1", BOB, "q"), "q", "a");

        rate(ADA, "m-ada", "like", "good");
        bed.clock.advance(1);
        rate(BOB, "m-bob", "dislike", "bad");

        List<MessageFeedback> listed = feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, 1, 20));
        assertThat(listed).extracting(MessageFeedback::endUserId).containsExactly("e-bob", "e-ada");
        assertThat(listed).extracting(MessageFeedback::rating)
                .containsExactly(FeedbackRating.DISLIKE, FeedbackRating.LIKE);
        assertThat(listed).extracting(MessageFeedback::conversationId).containsExactly("b1", "c1");
        assertThat(listed).extracting(MessageFeedback::fromSource).containsOnly(FeedbackSource.USER);
    }

    @Test
    void aRatingRemovedAndGivenAgainIsANewFeedbackAndTheHistoryShowsNoneBetween() {
        bed.turn("m1", bed.conversation("c1", ADA, "q"), "q", "a");
        ListMessagesService history = new ListMessagesService(bed.access, bed.messages, bed.signatures);
        rate(ADA, "m1", "like", null);
        MessageFeedback first = bed.messages.findFeedback("m1", FeedbackSource.USER).orElseThrow();

        rate(ADA, "m1", null, null);
        MessageFeedback between = history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", null, 20)).data().get(0)
                .feedback();
        bed.clock.advance(30);
        rate(ADA, "m1", "like", null);

        MessageFeedback again = bed.messages.findFeedback("m1", FeedbackSource.USER).orElseThrow();
        assertThat(between).isNull();
        assertThat(again.id()).isNotEqualTo(first.id());
        assertThat(again.createdAt()).isEqualTo(first.createdAt() + 30);
    }

    @Test
    void aRatingGivenAgainWithoutContentClearsTheEarlierContent() {
        bed.turn("m1", bed.conversation("c1", ADA, "q"), "q", "a");

        rate(ADA, "m1", "dislike", "too long");
        rate(ADA, "m1", "dislike", null);

        assertThat(bed.messages.findFeedback("m1", FeedbackSource.USER).orElseThrow().content()).isNull();
    }

    @Test
    void ratingsAreReadAsDifyWritesThemInLowerCase() {
        bed.turn("m1", bed.conversation("c1", ADA, "q"), "q", "a");

        assertRefused(() -> rate(ADA, "m1", "LIKE", null), ApiError.INVALID_PARAM,
                "rating must be like, dislike or null, was 'LIKE'");
        assertRefused(() -> rate(ADA, "m1", "", null), ApiError.INVALID_PARAM,
                "rating must be like, dislike or null, was ''");
        assertThat(bed.messages.findFeedback("m1", FeedbackSource.USER)).isEmpty();
    }

    @Test
    void feedbackInAWorkflowAppOnAnUnknownMessageOrByAStrangerIsRefused() {
        bed.turn("m1", bed.conversation("c1", ADA, "q"), "q", "a");

        assertRefused(() -> feedback.give(new GiveFeedbackCommand(FLOW_APP, ADA, "m1", "like", null)),
                ApiError.NOT_CHAT_APP, "Please check if your app mode matches the right API route.");
        assertRefused(() -> rate(ADA, "m9", "like", null), ApiError.NOT_FOUND, "Message Not Exists.");
        assertRefused(() -> rate("nobody", "m1", "like", null), ApiError.NOT_FOUND, "Message Not Exists.");
        assertThat(bed.endUsers.find(CHAT_APP, "nobody")).isEmpty();
        assertThat(ratedMessages(1, 20)).isEmpty();
    }

    @Test
    void aWorkflowAppHasNoFeedbacksAnUnknownAppIsRefusedAndAPageFarPastTheLastIsEmpty() {
        bed.turn("m1", bed.conversation("c1", ADA, "q"), "q", "a");
        rate(ADA, "m1", "like", null);

        assertThat(feedbacks.list(new ListAppFeedbacksQuery(FLOW_APP, 1, 20))).isEmpty();
        assertRefused(() -> feedbacks.list(new ListAppFeedbacksQuery("app-none", 1, 20)), ApiError.NOT_FOUND,
                "App not found.");
        assertRefused(() -> feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, 0, 20)), ApiError.INVALID_PARAM,
                "page must be 1 or more");
        assertThat(ratedMessages(1, 1)).containsExactly("m1");
        assertThat(ratedMessages(100000, 1)).isEmpty();
        assertThat(ratedMessages(Integer.MAX_VALUE, 101)).isEmpty();
    }
}
