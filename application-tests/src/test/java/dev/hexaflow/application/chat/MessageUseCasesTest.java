package dev.hexaflow.application.chat;

import static dev.hexaflow.application.chat.ChatBed.ADA;
import static dev.hexaflow.application.chat.ChatBed.BOB;
import static dev.hexaflow.application.chat.ChatBed.CHAT_APP;
import static dev.hexaflow.application.chat.ConversationUseCasesTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase.GiveFeedbackCommand;
import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase.ListAppFeedbacksQuery;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.ListMessagesQuery;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase.MessageList;
import dev.hexaflow.application.chat.port.in.SuggestQuestionsUseCase.SuggestQuestionsQuery;
import dev.hexaflow.application.chat.service.GiveFeedbackService;
import dev.hexaflow.application.chat.service.ListAppFeedbacksService;
import dev.hexaflow.application.chat.service.ListMessagesService;
import dev.hexaflow.application.chat.service.SuggestQuestionsService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.FeedbackRating;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import dev.hexaflow.domain.chat.MessageFile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A conversation's history, feedback on its answers and the questions suggested after one. */
class MessageUseCasesTest {

    private final ChatBed bed = new ChatBed();
    /** Signs with a digest of a fixed key and the message, and a constant nonce: what the URLs need here. */
    private final FileSignatures signatures = new FileSignatures(message -> {
        try {
            java.security.MessageDigest digest = java.security.MessageDigest.getInstance("SHA-256");
            digest.update("test-key|".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return digest.digest(message);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }, length -> "n".repeat(length), bed.clock);
    private final ListMessagesService history = new ListMessagesService(bed.access, bed.messages, signatures);
    private final GiveFeedbackService feedback = new GiveFeedbackService(bed.access, bed.messages, bed.clock,
            bed.ids);
    private final ListAppFeedbacksService feedbacks = new ListAppFeedbacksService(bed.access, bed.messages);
    private final SuggestQuestionsService suggest = new SuggestQuestionsService(bed.access, bed.messages,
            bed.systemModel);

    @Test
    void theHistoryGoesBackFromFirstIdAPageAtATimeEachPageOldestFirst() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        for (int i = 1; i <= 5; i++) {
            bed.turn("m" + i, chat, "q" + i, "a" + i);
            bed.clock.advance(1);
        }

        MessageList newest = history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", null, 2));
        MessageList older = history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", "m4", 2));
        MessageList oldest = history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", "m2", 2));

        assertThat(ids(newest)).containsExactly("m4", "m5");
        assertThat(newest.hasMore()).isTrue();
        assertThat(ids(older)).containsExactly("m2", "m3");
        assertThat(ids(oldest)).containsExactly("m1");
        assertThat(oldest.hasMore()).isFalse();
    }

    @Test
    void aMessagesUploadIsListedAtAUrlSignedNowLongAfterItsTurn() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        MessageFile upload = new MessageFile("f1", "minutes.txt", "document", "/files/up1/file-preview",
                "text/plain", 26, "local_file", "user", "up1");
        bed.messages.add(Message.started("m1", chat.id(), CHAT_APP, chat.endUserId(), null, Map.of(), "q1",
                List.of(upload), "run-m1", null, bed.clock.instant().getEpochSecond()));
        bed.clock.advance(FileSignatures.ACCESS_TIMEOUT.toSeconds() + 60);

        String url = history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", null, 20)).data().get(0).message()
                .files().get(0).url();

        assertThat(url).startsWith("/files/up1/file-preview?timestamp=");
        Map<String, String> params = new java.util.HashMap<>();
        for (String pair : url.substring(url.indexOf('?') + 1).split("&")) {
            params.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        assertThat(signatures.valid("up1", params.get("timestamp"), params.get("nonce"), params.get("sign")))
                .isTrue();
    }

    @Test
    void theHistoryOfAnotherUsersConversationOrAnUnknownFirstIdIsNotFound() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        bed.turn("m1", chat, "q1", "a1");

        assertRefused(() -> history.list(new ListMessagesQuery(CHAT_APP, BOB, "c1", null, 20)), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
        assertRefused(() -> history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", "m9", 20)), ApiError.NOT_FOUND,
                "First Message Not Exists.");
        assertRefused(() -> history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", null, 0)),
                ApiError.INVALID_PARAM, "limit must be between 1 and 100");
    }

    @Test
    void aRatingIsKeptShownInTheHistoryReplacedByTheNextAndRemovedByNull() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        bed.turn("m1", chat, "q1", "a1");

        feedback.give(new GiveFeedbackCommand(CHAT_APP, ADA, "m1", "like", "nice"));
        MessageFeedback first = bed.messages.findFeedback("m1", FeedbackSource.USER).orElseThrow();
        bed.clock.advance(5);
        feedback.give(new GiveFeedbackCommand(CHAT_APP, ADA, "m1", "dislike", "wrong after all"));
        MessageFeedback second = bed.messages.findFeedback("m1", FeedbackSource.USER).orElseThrow();

        assertThat(first.rating()).isEqualTo(FeedbackRating.LIKE);
        assertThat(second.id()).isEqualTo(first.id());
        assertThat(second.rating()).isEqualTo(FeedbackRating.DISLIKE);
        assertThat(second.content()).isEqualTo("wrong after all");
        assertThat(second.updatedAt()).isEqualTo(first.createdAt() + 5);
        assertThat(history.list(new ListMessagesQuery(CHAT_APP, ADA, "c1", null, 20)).data().get(0).feedback())
                .isEqualTo(second);
        assertThat(feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, 1, 20))).containsExactly(second);

        feedback.give(new GiveFeedbackCommand(CHAT_APP, ADA, "m1", null, null));
        assertThat(bed.messages.findFeedback("m1", FeedbackSource.USER)).isEmpty();
        assertRefused(() -> feedback.give(new GiveFeedbackCommand(CHAT_APP, ADA, "m1", null, null)),
                ApiError.INVALID_PARAM, "rating cannot be None when feedback not exists");
    }

    @Test
    void feedbackOnAnotherUsersMessageOrWithAnUnknownRatingIsRefused() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        bed.turn("m1", chat, "q1", "a1");

        assertRefused(() -> feedback.give(new GiveFeedbackCommand(CHAT_APP, BOB, "m1", "like", null)),
                ApiError.NOT_FOUND, "Message Not Exists.");
        assertRefused(() -> feedback.give(new GiveFeedbackCommand(CHAT_APP, ADA, "m1", "love", null)),
                ApiError.INVALID_PARAM, "rating must be like, dislike or null, was 'love'");
        assertThat(bed.messages.feedbacks(CHAT_APP, 1, 20)).isEmpty();
    }

    @Test
    void anAppsFeedbackPagesAreCheckedAsDifyChecksThem() {
        assertRefused(() -> feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, 0, 20)), ApiError.INVALID_PARAM,
                "page must be 1 or more");
        assertRefused(() -> feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, 1, 102)), ApiError.INVALID_PARAM,
                "limit must be between 1 and 101");
        assertThat(feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, 1, 101))).isEmpty();
        // Dify's page has no upper bound: a page far past the last is empty, not refused.
        assertThat(feedbacks.list(new ListAppFeedbacksQuery(CHAT_APP, 100_000, 20))).isEmpty();
    }

    @Test
    void suggestedQuestionsAskTheModelWithTheLastThreeTurnsAndKeepAtMostThree() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        for (int i = 1; i <= 4; i++) {
            bed.turn("m" + i, chat, "q" + i, "a" + i);
            bed.clock.advance(1);
        }
        bed.model.answers("Here you are: [\"Why?\", \"How?\", \"When?\", \"Where?\"] hope it helps");

        List<String> questions = suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m4"));

        assertThat(questions).containsExactly("Why?", "How?", "When?");
        var request = bed.model.requests.get(0);
        assertThat(request.parameters()).containsEntry("max_tokens", 256L).containsEntry("temperature", 0L);
        assertThat(request.messages().get(0).text()).isEqualTo("Human: q2\nAssistant: a2\nHuman: q3\n"
                + "Assistant: a3\nHuman: q4\nAssistant: a4\n"
                + "Please help me predict the three most likely questions that human would ask, and keep each "
                + "question under 20 characters.\nMAKE SURE your output is the SAME language as the Assistant's "
                + "latest response. The output must be an array in JSON format following the specified schema:\n"
                + "[\"question1\",\"question2\",\"question3\"]\n\nquestions:\n");
    }

    @Test
    void aTurnStillAnsweringIsLeftOutOfTheHistory() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        bed.turn("m1", chat, "q1", "a1");
        bed.clock.advance(1);
        bed.messages.add(Message.started("m2", "c1", CHAT_APP, chat.endUserId(), null, Map.of(), "q2", List.of(),
                null, null, bed.clock.instant().getEpochSecond()));
        bed.model.answers("[\"Next?\"]");

        suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"));

        assertThat(bed.model.requests.get(0).messages().get(0).text()).startsWith("Human: q1\nAssistant: a1\n"
                + "Please help");
    }

    @Test
    void anAnswerWithoutAJsonListOrAFailingModelSuggestsNothing() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        bed.turn("m1", chat, "q1", "a1");
        bed.model.answers("I cannot think of any.");
        bed.model.answers("[not json]");
        bed.model.fails();

        assertThat(suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"))).isEmpty();
        assertThat(suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"))).isEmpty();
        assertThat(suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1"))).isEmpty();
        assertThat(bed.model.requests).hasSize(3);
    }

    @Test
    void suggestionsAreRefusedWhenTheFeatureIsOffOrTheMessageIsAnotherUsers() {
        Conversation chat = bed.conversation("c1", ADA, "q1");
        bed.turn("m1", chat, "q1", "a1");

        assertRefused(() -> suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, BOB, "m1")), ApiError.NOT_FOUND,
                "Message Not Exists.");
        bed.features = Map.of("suggested_questions_after_answer", Map.of("enabled", false));
        assertRefused(() -> suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1")), ApiError.BAD_REQUEST,
                "Suggested Questions Is Disabled.");
        bed.features = Map.of();
        assertRefused(() -> suggest.suggest(new SuggestQuestionsQuery(CHAT_APP, ADA, "m1")), ApiError.BAD_REQUEST,
                "Suggested Questions Is Disabled.");
        assertThat(bed.model.requests).isEmpty();
    }

    private static List<String> ids(MessageList list) {
        return list.data().stream().map(item -> item.message().id()).toList();
    }
}
