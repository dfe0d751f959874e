package dev.hexaflow.application.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryInstanceSignals;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.NoWebhooks;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.SendChatMessageCommand;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.chat.service.SendChatMessageService;
import dev.hexaflow.application.chat.service.StopChatMessageService;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Chat turns on the chat bed, run by the real run service and engine: the published chatflow is read as a start
 * node and an answer node that repeats the query, so no model is called.
 */
class SendChatMessageServiceTest {

    private final ChatBed bed = new ChatBed();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final TaskRegistry tasks = new TaskRegistry();
    private final RunWorkflowService runs = new RunWorkflowService(bed.apps, bed.versions, bed.endUsers,
            new InMemoryUploadRepository(), new InMemoryRunRepository(), dsl -> echoChat(), EchoWorkflow.engine(),
            tasks, 0, bed.clock, () -> UUID.randomUUID().toString(), StorageHealth.UNWATCHED, listeners,
            (event, runId, taskId) -> "", new RunFeeds(), new InMemoryIdempotencyKeyRepository(), new NoWebhooks(),
            new HeldRecords(), RunMonitor.NONE);
    /** The renames of new conversations, held until a test runs them: they follow the turn on another thread. */
    private final BlockingQueue<Runnable> namings = new LinkedBlockingQueue<>();
    private final SendChatMessageService send = new SendChatMessageService(bed.access, runs, bed.endUsers,
            bed.conversations, bed.messages, bed.variables, new RenameConversationService(bed.access,
            bed.conversations, bed.messages, bed.systemModel, bed.clock), namings::add, bed.clock,
            () -> UUID.randomUUID().toString(), new FileSignatures(message -> message, n -> "n".repeat(n),
            bed.clock));

    @AfterEach
    void close() {
        listeners.shutdownNow();
    }

    /** A chatflow that answers "You said: " and the query. */
    private static Workflow echoChat() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of()));
        Node answer = Node.of("answer", NodeType.ANSWER, Map.of("type", "answer", "title", "Answer", "answer",
                "You said: {{#sys.query#}}"));
        return new Workflow(new AppInfo("Chat", AppInfo.ADVANCED_CHAT_MODE, null, null, null, "", false), "0.3.0",
                new Graph(List.of(start, answer), List.of(new Edge("e1", "start", "answer", Edge.DEFAULT_HANDLE))),
                null, List.of());
    }

    private ChatUnderWay say(String user, String query, String conversationId) {
        return send.send(new SendChatMessageCommand(ChatBed.CHAT_APP, null, user, query, Map.of(), List.of(),
                conversationId, false), RunObserver.NONE);
    }

    @Test
    void aFirstMessageStartsAConversationOfItsEndUserAndKeepsTheAnsweredMessage() {
        ChatUnderWay turn = say(ChatBed.ADA, "hello", null);

        ChatReply reply = turn.await();

        assertThat(reply.run().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(reply.message().answer()).isEqualTo("You said: hello");
        assertThat(reply.message().status()).isEqualTo(MessageStatus.NORMAL);
        assertThat(reply.message().conversationId()).isEqualTo(turn.conversationId());
        assertThat(bed.conversations.find(ChatBed.CHAT_APP, "e-ada", turn.conversationId())).isPresent();
        assertThat(bed.messages.find(ChatBed.CHAT_APP, "e-ada", turn.messageId()).map(Message::answer))
                .contains("You said: hello");
    }

    @Test
    void aNextMessageInTheConversationContinuesIt() {
        ChatUnderWay first = say(ChatBed.ADA, "one", null);
        first.await();

        ChatUnderWay second = say(ChatBed.ADA, "two", first.conversationId());
        second.await();

        assertThat(second.conversationId()).isEqualTo(first.conversationId());
        assertThat(bed.messages.count(first.conversationId())).isEqualTo(2);
        assertThat(bed.messages.last(first.conversationId(), 2)).extracting(Message::query)
                .containsExactlyInAnyOrder("one", "two");
    }

    @Test
    void anotherUsersConversationOrAnIdThatIsNoUuidIsRefused() {
        ChatUnderWay adas = say(ChatBed.ADA, "one", null);
        adas.await();

        assertRefused(() -> say(ChatBed.BOB, "mine?", adas.conversationId()), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
        assertRefused(() -> say(ChatBed.ADA, "hi", "conv-1"), ApiError.INVALID_PARAM,
                "conversation_id must be a valid UUID");
        assertRefused(() -> say(ChatBed.ADA, "hi", UUID.randomUUID().toString()), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
        assertThat(bed.messages.count(adas.conversationId())).isEqualTo(1);
    }

    @Test
    void aMessageWithoutQueryOrUserOrToAWorkflowAppIsRefused() {
        assertRefused(() -> say(ChatBed.ADA, null, null), ApiError.INVALID_PARAM, "query is required");
        assertRefused(() -> say("", "hi", null), ApiError.INVALID_PARAM, "Arg user must be provided.");
        assertRefused(() -> send.send(new SendChatMessageCommand(ChatBed.FLOW_APP, null, ChatBed.ADA, "hi", null,
                null, null, false), RunObserver.NONE), ApiError.NOT_CHAT_APP,
                "Please check if your app mode matches the right API route.");
        assertRefused(() -> send.send(new SendChatMessageCommand("app-none", null, ChatBed.ADA, "hi", null,
                null, null, false), RunObserver.NONE), ApiError.NOT_FOUND, "App not found.");
    }

    @Test
    void aStopIsForAChatflowsTaskAndOnlyWithAUser() {
        StopChatMessageService stop = new StopChatMessageService(bed.access, new StopTaskService(tasks,
                InMemoryInstanceSignals.ALONE));

        assertRefused(() -> stop.stop(ChatBed.FLOW_APP, "task-1", ChatBed.ADA), ApiError.NOT_CHAT_APP,
                "Please check if your app mode matches the right API route.");
        assertRefused(() -> stop.stop("app-none", "task-1", ChatBed.ADA), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> stop.stop(ChatBed.CHAT_APP, "task-1", " "), ApiError.INVALID_PARAM,
                "Arg user must be provided.");
        // A task that is over, or was never, is stopped quietly, as Dify answers it.
        stop.stop(ChatBed.CHAT_APP, "task-1", ChatBed.ADA);
        assertThat(say(ChatBed.ADA, "still here", null).await().message().answer())
                .isEqualTo("You said: still here");
    }

    private ChatUnderWay sayNaming(String query) {
        return send.send(new SendChatMessageCommand(ChatBed.CHAT_APP, null, ChatBed.ADA, query, Map.of(),
                List.of(), null, true), RunObserver.NONE);
    }

    private Conversation kept(String conversationId) {
        return bed.conversations.find(ChatBed.CHAT_APP, "e-ada", conversationId).orElseThrow();
    }

    @Test
    void aNewConversationIsNamedAfterItsFirstQueryAndHoldsTheChatflowsVariablesAtTheirDefaults() {
        ChatUnderWay turn = say(ChatBed.ADA, "What is the capital of France?", null);
        turn.await();

        assertThat(kept(turn.conversationId()).name()).isEqualTo("What is the capital …");
        assertThat(bed.variables.all(turn.conversationId())).singleElement().satisfies(variable -> {
            assertThat(variable.variable().name()).isEqualTo("topic");
            assertThat(variable.variable().value()).isEqualTo("none");
        });
        assertThat(bed.messages.find(ChatBed.CHAT_APP, "e-ada", turn.messageId()).orElseThrow().parentMessageId())
                .isNull();
    }

    @Test
    void aNextTurnAnswersAfterThePreviousMessageAndMovesItsConversationUp() {
        ChatUnderWay first = say(ChatBed.ADA, "one", null);
        first.await();
        bed.clock.advance(30);

        ChatUnderWay second = say(ChatBed.ADA, "two", first.conversationId());
        ChatReply reply = second.await();

        assertThat(reply.message().parentMessageId()).isEqualTo(first.messageId());
        assertThat(reply.message().workflowRunId()).isEqualTo(reply.run().id());
        Conversation conversation = kept(first.conversationId());
        assertThat(conversation.updatedAt()).isEqualTo(conversation.createdAt() + 30);
    }

    @Test
    void aNewConversationAskedToBeNamedIsTitledByTheModelAfterItsFirstTurn() throws InterruptedException {
        bed.model.answers("{\"Your Output\": \"Paris question\"}");

        ChatUnderWay turn = sayNaming("What is the capital of France?");
        turn.await();
        namings.poll(5, TimeUnit.SECONDS).run();

        assertThat(kept(turn.conversationId()).name()).isEqualTo("Paris question");
        assertThat(bed.model.requests.get(0).messages().get(0).text())
                .endsWith("User Input:\nWhat is the capital of France?\n");
    }

    @Test
    void aModelThatFailsToNameLeavesTheFirstNameAndALaterTurnIsNeverRenamed() throws InterruptedException {
        bed.model.fails();
        ChatUnderWay first = sayNaming("hello");
        first.await();
        namings.poll(5, TimeUnit.SECONDS).run();

        send.send(new SendChatMessageCommand(ChatBed.CHAT_APP, null, ChatBed.ADA, "again", Map.of(), List.of(),
                first.conversationId(), true), RunObserver.NONE).await();

        assertThat(kept(first.conversationId()).name()).isEqualTo("hello");
        // Only a new conversation is named: the second turn queued no rename.
        assertThat(namings).isEmpty();
        assertThat(bed.model.requests).hasSize(1);
    }

    @Test
    void aConversationIdWithSpacesAroundItContinuesThatConversation() {
        ChatUnderWay first = say(ChatBed.ADA, "one", null);
        first.await();

        ChatUnderWay second = say(ChatBed.ADA, "two", "  " + first.conversationId() + " ");
        second.await();

        assertThat(second.conversationId()).isEqualTo(first.conversationId());
        assertThat(bed.messages.count(first.conversationId())).isEqualTo(2);
    }

    @Test
    void aDeletedConversationTakesNoFurtherTurn() {
        ChatUnderWay first = say(ChatBed.ADA, "one", null);
        first.await();
        bed.conversations.delete(ChatBed.CHAT_APP, "e-ada", first.conversationId());

        assertRefused(() -> say(ChatBed.ADA, "two", first.conversationId()), ApiError.NOT_FOUND,
                "Conversation Not Exists.");
        assertThat(bed.messages.count(first.conversationId())).isZero();
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }

}
