package dev.hexaflow.application.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryAnnotationRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.NoWebhooks;
import dev.hexaflow.application.annotations.service.ChatAnnotationReplies;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.AnnotationReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.SendChatMessageCommand;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.chat.service.SendChatMessageService;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.domain.annotation.Annotation;
import dev.hexaflow.domain.annotation.AnnotationSetting;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A chat turn an annotation answers, on the chat bed with the real run service and the annotations context's
 * reply: the answer is the annotation's, told as one text chunk, no run is started, and the conversation and
 * message are kept as a run's turn keeps them; a message no annotation is close to is answered by the chatflow.
 */
class AnnotatedTurnTest {

    private final ChatBed bed = new ChatBed();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final InMemoryRunRepository runStore = new InMemoryRunRepository();
    private final RunWorkflowService runs = new RunWorkflowService(bed.apps, bed.versions, bed.endUsers,
            new InMemoryUploadRepository(), runStore, dsl -> echoChat(), EchoWorkflow.engine(),
            new TaskRegistry(), 0, bed.clock, () -> UUID.randomUUID().toString(), StorageHealth.UNWATCHED,
            listeners, (event, runId, taskId) -> "", new RunFeeds(), new InMemoryIdempotencyKeyRepository(),
            new NoWebhooks(), new HeldRecords(), RunMonitor.NONE);
    private final InMemoryAnnotationRepository annotations = new InMemoryAnnotationRepository();
    private final SendChatMessageService send = new SendChatMessageService(bed.access, runs, bed.endUsers,
            bed.conversations, bed.messages, bed.variables, new RenameConversationService(bed.access,
            bed.conversations, bed.messages, bed.systemModel, bed.clock), Runnable::run, bed.clock,
            () -> UUID.randomUUID().toString(), new FileSignatures(message -> message, n -> "n".repeat(n),
            bed.clock), new ChatAnnotationReplies(annotations, bed.clock, () -> UUID.randomUUID().toString()));
    private final Annotation hours = new Annotation(UUID.randomUUID().toString(), ChatBed.CHAT_APP,
            "What are your opening hours?", "9 to 5, Monday to Friday.", 0, 1);

    AnnotatedTurnTest() {
        annotations.add(hours);
        annotations.saveSetting(new AnnotationSetting(ChatBed.CHAT_APP, 0.9, "openai", "text-embedding-3-small",
                1));
    }

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

    private ChatUnderWay say(String query, String conversationId, List<RunEvent> heard) {
        return send.send(new SendChatMessageCommand(ChatBed.CHAT_APP, null, ChatBed.ADA, query, Map.of(),
                List.of(), conversationId, false), heard::add);
    }

    @Test
    void anAnnotatedQuestionIsAnsweredWithNoRunAndItsTurnIsKept() {
        List<RunEvent> heard = new CopyOnWriteArrayList<>();

        ChatUnderWay turn = say("what are your opening hours", null, heard);
        ChatReply reply = turn.await();

        assertThat(reply.run()).isNull();
        assertThat(turn.runId()).isNull();
        assertThat(reply.annotationReply()).isEqualTo(new AnnotationReply(hours.id()));
        assertThat(heard).containsExactly(new RunEvent.TextChunk("9 to 5, Monday to Friday.", List.of()));
        Message kept = bed.messages.find(ChatBed.CHAT_APP, "e-ada", turn.messageId()).orElseThrow();
        assertThat(kept.answer()).isEqualTo("9 to 5, Monday to Friday.");
        assertThat(kept.status()).isEqualTo(MessageStatus.NORMAL);
        assertThat(kept.workflowRunId()).isNull();
        assertThat(reply.message()).isEqualTo(kept);
        assertThat(bed.conversations.find(ChatBed.CHAT_APP, "e-ada", turn.conversationId())).isPresent();
        assertThat(annotations.find(ChatBed.CHAT_APP, hours.id()).orElseThrow().hitCount()).isEqualTo(1);
        assertThat(annotations.hits(ChatBed.CHAT_APP, hours.id()).get(0).messageId()).isEqualTo(turn.messageId());
        assertThat(bed.model.requests).isEmpty();
    }

    @Test
    void anotherQuestionOfTheSameConversationGoesToTheChatflow() {
        ChatUnderWay first = say("What are your opening hours?", null, new CopyOnWriteArrayList<>());
        first.await();

        ChatUnderWay second = say("Tell me a joke", first.conversationId(), new CopyOnWriteArrayList<>());
        ChatReply reply = second.await();

        assertThat(reply.run().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(reply.annotationReply()).isNull();
        assertThat(reply.message().answer()).isEqualTo("You said: Tell me a joke");
        assertThat(second.conversationId()).isEqualTo(first.conversationId());
        assertThat(bed.messages.last(first.conversationId(), 2)).extracting(Message::answer)
                .containsExactlyInAnyOrder("9 to 5, Monday to Friday.", "You said: Tell me a joke");
    }
}
