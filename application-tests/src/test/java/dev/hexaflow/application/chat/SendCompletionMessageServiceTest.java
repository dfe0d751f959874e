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
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase.CompletionCommand;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.chat.service.SendChatMessageService;
import dev.hexaflow.application.chat.service.SendCompletionMessageService;
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
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.secret.SecretHash;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A text generator's messages on the chat bed, run by the real run service and engine: the published app is read
 * as a start node and an answer node that repeats its input, as the graph of a completion app's model_config is.
 */
class SendCompletionMessageServiceTest {

    private static final String POET = "app-poet";
    private static final String UNAVAILABLE = "App unavailable, please check your app configurations.";

    private final ChatBed bed = new ChatBed();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final TaskRegistry tasks = new TaskRegistry();
    private final RunWorkflowService runs = new RunWorkflowService(bed.apps, bed.versions, bed.endUsers,
            new InMemoryUploadRepository(), new InMemoryRunRepository(), dsl -> poem(), EchoWorkflow.engine(),
            tasks, 0, bed.clock, () -> UUID.randomUUID().toString(), StorageHealth.UNWATCHED, listeners,
            (event, runId, taskId) -> "", new RunFeeds(), new InMemoryIdempotencyKeyRepository(), new NoWebhooks(),
            new HeldRecords(), RunMonitor.NONE);
    private final SendChatMessageService turns = new SendChatMessageService(bed.access, runs, bed.endUsers,
            bed.conversations, bed.messages, bed.variables, new RenameConversationService(bed.access,
            bed.conversations, bed.messages, bed.systemModel, bed.clock), Runnable::run, bed.clock,
            () -> UUID.randomUUID().toString(), new FileSignatures(message -> message, n -> "n".repeat(n),
            bed.clock));
    private final SendCompletionMessageService complete = new SendCompletionMessageService(bed.access, turns,
            new StopTaskService(tasks, InMemoryInstanceSignals.ALONE));

    SendCompletionMessageServiceTest() {
        bed.apps.add(new App(POET, "Poet", "", AppInfo.COMPLETION_MODE, "emoji", "x", "#FFF", List.of(),
                new SiteSettings("Title", "emoji", "x", "#FFF", null, "desc", "c", "https://p", "", "en-US", true,
                        false), "poetcode1", true, 1));
        bed.versions.add(new WorkflowVersion("ver-poet", POET, "v1", "dsl", SecretHash.of("dsl"), 1));
    }

    @AfterEach
    void close() {
        listeners.shutdownNow();
    }

    /** A text generator whose answer repeats its subject. */
    private static Workflow poem() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of(Map.of("variable", "subject", "label", "Subject", "type", "text-input"))));
        Node answer = Node.of("answer", NodeType.ANSWER, Map.of("type", "answer", "title", "Answer", "answer",
                "A poem of {{#start.subject#}}"));
        return new Workflow(new AppInfo("Poet", AppInfo.COMPLETION_MODE, null, null, null, "", false), "0.1.5",
                new Graph(List.of(start, answer), List.of(new Edge("e1", "start", "answer", Edge.DEFAULT_HANDLE))),
                null, List.of());
    }

    private ChatUnderWay write(String app, String user, String subject) {
        return complete.complete(new CompletionCommand(app, user, null, Map.of("subject", subject), null),
                RunObserver.NONE);
    }

    @Test
    void eachMessageIsAnsweredAndKeptInAConversationOfItsOwn() {
        ChatUnderWay first = write(POET, ChatBed.ADA, "the sea");
        ChatReply reply = first.await();
        ChatUnderWay second = write(POET, ChatBed.ADA, "the hills");
        second.await();

        assertThat(reply.run().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(reply.message().answer()).isEqualTo("A poem of the sea");
        assertThat(first.mode()).isEqualTo(AppInfo.COMPLETION_MODE);
        assertThat(second.conversationId()).isNotEqualTo(first.conversationId());
        assertThat(bed.messages.last(second.conversationId(), 5)).extracting(Message::answer)
                .containsExactly("A poem of the hills");
        assertThat(bed.messages.last(first.conversationId(), 5)).extracting(Message::query).containsExactly("");
    }

    @Test
    void anAppOfAnotherModeIsUnavailableAndATextGeneratorIsNoChat() {
        assertRefused(() -> write(ChatBed.CHAT_APP, ChatBed.ADA, "x"), ApiError.APP_UNAVAILABLE, UNAVAILABLE);
        assertRefused(() -> write(ChatBed.FLOW_APP, ChatBed.ADA, "x"), ApiError.APP_UNAVAILABLE, UNAVAILABLE);
        assertRefused(() -> write("no-such-app", ChatBed.ADA, "x"), ApiError.NOT_FOUND, "App not found.");
        assertRefused(() -> turns.send(new SendChatMessageCommand(POET, null, ChatBed.ADA, "hi", Map.of(),
                List.of(), null, false), RunObserver.NONE), ApiError.NOT_CHAT_APP,
                "Please check if your app mode matches the right API route.");
        assertThatThrownBy(() -> write(POET, null, "x")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.error()).isEqualTo(ApiError.INVALID_PARAM));
    }

    @Test
    void aStopIsForATextGeneratorsTaskAndAnUnknownOneIsNoError() {
        complete.stop(POET, "no-such-task", ChatBed.ADA);

        assertRefused(() -> complete.stop(ChatBed.CHAT_APP, "task-1", ChatBed.ADA), ApiError.APP_UNAVAILABLE,
                UNAVAILABLE);
        assertThatThrownBy(() -> complete.stop(POET, "task-1", "")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.error()).isEqualTo(ApiError.INVALID_PARAM));
    }

    private static void assertRefused(ThrowingCallable call, ApiError error, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.error()).isEqualTo(error);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
