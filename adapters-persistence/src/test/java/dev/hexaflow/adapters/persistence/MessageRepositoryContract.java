package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.ChatFixtures.ADA;
import static dev.hexaflow.adapters.persistence.ChatFixtures.BOB;
import static dev.hexaflow.adapters.persistence.ChatFixtures.CARL;
import static dev.hexaflow.adapters.persistence.ChatFixtures.conversation;
import static dev.hexaflow.adapters.persistence.ChatFixtures.like;
import static dev.hexaflow.adapters.persistence.ChatFixtures.message;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.OTHER_APP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.ChatFixtures.ChatStore;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository.ListedMessage;
import dev.hexaflow.application.chat.port.out.MessageRepository.MessagePage;
import dev.hexaflow.domain.chat.AgentThought;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.FeedbackRating;
import dev.hexaflow.domain.chat.FeedbackSource;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.Message.TurnOutcome;
import dev.hexaflow.domain.chat.MessageFeedback;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.chat.MessageStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link MessageRepository} promises, on conversations of {@link ChatFixtures}' end users. */
abstract class MessageRepositoryContract {

    protected abstract ChatStore store();

    private final Conversation chat = conversation("c1", ADA, 100, 100);
    private final Conversation other = conversation("c2", BOB, 100, 100);

    private MessageRepository messages() {
        return store().messages();
    }

    @BeforeEach
    void conversations() {
        store().conversations().add(chat);
        store().conversations().add(other);
    }

    @Test
    void aMessageStartedAndFinishedIsReadWithEverythingItsTurnGave() {
        MessageFile upload = new MessageFile("f1", "a.png", "image", "http://x/a.png", "image/png", 12,
                "local_file", "user", "up1");
        Message started = Message.started("m1", "c1", APP, ADA, "m0", Map.of("city", "Paris"), "Hi?",
                List.of(upload), "run-1", "task-1", 100);
        messages().add(started);
        MessageFile made = new MessageFile("f2", "b.png", "image", "http://x/b.png", "image/png", 7, "tool_file",
                "assistant", null);
        Message finished = started.finish(new TurnOutcome("Hello!", MessageStatus.NORMAL, null, "run-1", 12, 3,
                1.5, List.of(Map.of("position", 1L, "content", "cited")), List.of(made)));

        messages().finish(finished);

        assertThat(messages().find(APP, ADA, "m1")).contains(finished);
        assertThat(messages().find(APP, ADA, "m1").orElseThrow().files()).containsExactly(upload, made);
    }

    @Test
    void anAgentsThoughtsAreKeptWithItsMessageInPositionOrder() {
        Message started = Message.started("m1", "c1", APP, ADA, null, Map.of(), "What day?", List.of(), "run-1",
                "task-1", 100);
        messages().add(started);
        Map<String, Object> input = new java.util.LinkedHashMap<>();
        input.put("year", 2024L);
        input.put("nothing", null);
        AgentThought first = new AgentThought("t1", 1, "Let me look.", "weekday", Map.of("weekday", input),
                Map.of("weekday", "Thursday"), 101);
        AgentThought last = new AgentThought("t2", 2, "It is a Thursday.", "", Map.of(), Map.of(), 102);
        Message finished = started.finish(new TurnOutcome("It is a Thursday.", MessageStatus.NORMAL, null, "run-1",
                9, 4, 1.0, List.of(), List.of())).withAgentThoughts(List.of(first, last));

        messages().finish(finished);

        Message read = messages().find(APP, ADA, "m1").orElseThrow();
        assertThat(read.agentThoughts()).containsExactly(first, last);
        assertThat(read.agentThoughts().get(0).toolInput().get("weekday")).isEqualTo(input);
        assertThat(messages().find(APP, ADA, "m1")).contains(finished);
    }

    @Test
    void aMessageWithNoAgentHasNoThoughts() {
        messages().add(message("m1", chat, 100));

        assertThat(messages().find(APP, ADA, "m1").orElseThrow().agentThoughts()).isEmpty();
    }

    @Test
    void aMessageIsFoundOnlyByItsAppAndEndUserOrItsConversation() {
        messages().add(message("m1", chat, 100));

        assertThat(messages().find(APP, BOB, "m1")).isEmpty();
        assertThat(messages().find(OTHER_APP, ADA, "m1")).isEmpty();
        assertThat(messages().findInConversation("c1", "m1")).isPresent();
        assertThat(messages().findInConversation("c2", "m1")).isEmpty();
    }

    @Test
    void onlyMessagesStillNormalWithNoAnswerOrPausedAwaitTheirAnswer() {
        Message waiting = Message.started("m1", "c1", APP, ADA, null, Map.of(), "Hi?", List.of(), "run-1", null,
                100);
        Message answered = Message.started("m2", "c1", APP, ADA, null, Map.of(), "Hi?", List.of(), "run-2", null,
                101);
        Message cutOff = Message.started("m3", "c1", APP, ADA, null, Map.of(), "Hi?", List.of(), "run-3", null,
                102);
        Message paused = Message.started("m4", "c1", APP, ADA, null, Map.of(), "Hi?", List.of(), "run-4", null,
                103);
        messages().add(waiting);
        messages().add(answered);
        messages().add(cutOff);
        messages().add(paused);
        messages().finish(answered.finish(new TurnOutcome("Hello!", MessageStatus.NORMAL, null, "run-2", 1, 1, 1,
                List.of(), List.of())));
        messages().finish(cutOff.interrupted("The server stopped."));
        messages().finish(paused.finish(new TurnOutcome("So far", MessageStatus.PAUSED, null, "run-4", 1, 1, 1,
                List.of(), List.of())));

        assertThat(messages().awaitingAnswer()).extracting(Message::id).containsExactly("m1", "m4");
        assertThat(messages().findInConversation("c1", "m3").orElseThrow().status()).isEqualTo(MessageStatus.ERROR);
    }

    @Test
    void finishingAMessageNoLongerKeptAnswersFalseAndKeepsNothing() {
        assertThat(messages().finish(message("ghost", chat, 100))).isFalse();
        assertThat(messages().findInConversation("c1", "ghost")).isEmpty();
    }

    @Test
    void pagesGoBackFromTheFirstIdAndEachIsInTheOrderSent() {
        for (int i = 1; i <= 5; i++) {
            messages().add(message("m" + i, chat, i < 4 ? 100 : 100 + i));
        }
        messages().add(message("x1", other, 100));

        MessagePage newest = messages().page("c1", null, 2);
        Message oldestShown = newest.items().get(0).message();
        MessagePage before = messages().page("c1", oldestShown, 2);
        MessagePage last = messages().page("c1", before.items().get(0).message(), 2);

        assertThat(ids(newest)).containsExactly("m4", "m5");
        assertThat(newest.hasMore()).isTrue();
        assertThat(ids(before)).containsExactly("m2", "m3");
        assertThat(before.hasMore()).isTrue();
        assertThat(ids(last)).containsExactly("m1");
        assertThat(last.hasMore()).isFalse();
    }

    @Test
    void aListedMessageCarriesItsEndUsersFeedback() {
        Message rated = message("m1", chat, 100);
        messages().add(rated);
        messages().add(message("m2", chat, 101));
        messages().setFeedback(like("f1", rated, 102));

        List<ListedMessage> items = messages().page("c1", null, 20).items();

        assertThat(items.get(0).feedback().rating()).isEqualTo(FeedbackRating.LIKE);
        assertThat(items.get(1).feedback()).isNull();
    }

    @Test
    void theLastMessagesFirstAndCountSeeOnlyTheConversation() {
        for (int i = 1; i <= 4; i++) {
            messages().add(message("m" + i, chat, 100 + i));
        }
        messages().add(message("x1", other, 90));

        assertThat(messages().last("c1", 3)).extracting(Message::id).containsExactly("m2", "m3", "m4");
        assertThat(messages().last("c1", 10)).hasSize(4);
        assertThat(messages().first("c1")).map(Message::id).contains("m1");
        assertThat(messages().first("nothing")).isEmpty();
        assertThat(messages().count("c1")).isEqualTo(4);
        assertThat(messages().count("c2")).isEqualTo(1);
    }

    @Test
    void aFeedbackGivenAgainReplacesTheFirstAndANullRatingRemovesIt() {
        Message rated = message("m1", chat, 100);
        messages().add(rated);
        MessageFeedback first = like("f1", rated, 101);
        messages().setFeedback(first);

        MessageFeedback second = first.revised(FeedbackRating.DISLIKE, "wrong", 105);
        messages().setFeedback(second);

        assertThat(messages().findFeedback("m1", FeedbackSource.USER)).contains(second);
        assertThat(messages().feedbacks(APP, 1, 20)).containsExactly(second);
        assertThat(messages().removeFeedback("m1", FeedbackSource.USER)).isTrue();
        assertThat(messages().removeFeedback("m1", FeedbackSource.USER)).isFalse();
        assertThat(messages().findFeedback("m1", FeedbackSource.USER)).isEmpty();
    }

    @Test
    void anAppsFeedbackIsPagedNewestFirstAndHoldsNoOtherAppsFeedback() {
        Conversation elsewhere = conversation("c3", OTHER_APP, CARL, 100, 100);
        store().conversations().add(elsewhere);
        for (int i = 1; i <= 5; i++) {
            Message message = message("m" + i, chat, 100 + i);
            messages().add(message);
            messages().setFeedback(like("f" + i, message, 200 + i));
        }
        Message foreign = message("x1", elsewhere, 100);
        messages().add(foreign);
        messages().setFeedback(like("fx", foreign, 300));

        assertThat(messages().feedbacks(APP, 1, 2)).extracting(MessageFeedback::id).containsExactly("f5", "f4");
        assertThat(messages().feedbacks(APP, 3, 2)).extracting(MessageFeedback::id).containsExactly("f1");
        assertThat(messages().feedbacks(APP, 4, 2)).isEmpty();
    }

    private static List<String> ids(MessagePage page) {
        return page.items().stream().map(item -> item.message().id()).toList();
    }
}
