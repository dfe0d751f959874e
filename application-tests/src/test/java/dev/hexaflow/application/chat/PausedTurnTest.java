package dev.hexaflow.application.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.NoWebhooks;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.SendChatMessageCommand;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.chat.service.ResumedChatTurns;
import dev.hexaflow.application.chat.service.SendChatMessageService;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.service.AnswerFormService;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.PausedFormMails;
import dev.hexaflow.application.runs.service.ResumeRuns;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.ConversationVariable;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A chat turn whose chatflow run waits for a person, on the chat bed with the real run service, engine, forms and
 * resumption: the message is kept paused with the answer so far, and the answered form's run completes it.
 */
class PausedTurnTest {

    private final ChatBed bed = new ChatBed();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final TaskRegistry tasks = new TaskRegistry();
    private final InMemoryRunRepository runs = new InMemoryRunRepository();
    private final WorkflowEngine engine = EchoWorkflow.engine();
    private final RunFeeds feeds = new RunFeeds();
    private final Supplier<String> ids = () -> UUID.randomUUID().toString();
    private final FileSignatures signatures = new FileSignatures(message -> message, n -> "n".repeat(n), bed.clock);
    private final RunWorkflowService run = new RunWorkflowService(bed.apps, bed.versions, bed.endUsers,
            new InMemoryUploadRepository(), runs, dsl -> askingChat(), engine, tasks, 0, bed.clock, ids,
            StorageHealth.UNWATCHED, listeners, (event, runId, taskId) -> "", feeds,
            new InMemoryIdempotencyKeyRepository(), new NoWebhooks(), new HeldRecords(), RunMonitor.NONE);
    private final SendChatMessageService send = new SendChatMessageService(bed.access, run, bed.endUsers,
            bed.conversations, bed.messages, bed.variables, new RenameConversationService(bed.access,
            bed.conversations, bed.messages, bed.systemModel, bed.clock), task -> { }, bed.clock, ids, signatures);
    private final AnswerFormService forms = new AnswerFormService(runs.pauses(), new InMemoryUploadRepository(),
            new ResumeRuns(runs, bed.versions, dsl -> askingChat(), engine, listeners, (event, runId, taskId) -> "",
                    feeds, RunMonitor.NONE, tasks, bed.clock, PausedFormMails.NONE, new ResumedChatTurns(bed.access, bed.conversations,
                    bed.messages, bed.variables, bed.clock, ids, signatures), new NoWebhooks()),
            bed.clock);

    @AfterEach
    void close() {
        listeners.shutdownNow();
    }

    /**
     * start → remember the query in {@code topic} → answer "Checking {query}. " → a form (a paragraph
     * {@code note}; approve or reject) → on approve, answer "Approved: {note}".
     */
    private static Workflow askingChat() {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of()));
        Node remember = Node.of("remember", NodeType.ASSIGNER, Map.of("type", "assigner", "title", "Remember",
                "version", "2", "items", List.of(Map.of("input_type", "variable", "operation", "over-write",
                        "value", List.of("sys", "query"), "variable_selector", List.of("conversation", "topic"),
                        "write_mode", "over-write"))));
        Node first = answer("first", "Checking {{#sys.query#}}. ");
        Node review = Node.of("review", NodeType.HUMAN_INPUT, Map.of("type", "human-input", "title", "Review",
                "form_content", "May I? {{#$output.note#}}",
                "inputs", List.of(Map.of("type", "paragraph", "output_variable_name", "note",
                        "default", Map.of("type", "constant", "selector", List.of(), "value", "fine"))),
                "user_actions", List.of(Map.of("id", "approve", "title", "Approve"),
                        Map.of("id", "reject", "title", "Reject")),
                "delivery_methods", List.of(Map.of("type", "webapp", "enabled", true)),
                "timeout", 1, "timeout_unit", "day"));
        Node approved = answer("approved", "Approved: {{#review.note#}}");
        return new Workflow(new AppInfo("Ask", AppInfo.ADVANCED_CHAT_MODE, null, null, null, "", false), "0.3.0",
                new Graph(List.of(start, remember, first, review, approved), List.of(
                        new Edge("e1", "start", "remember", Edge.DEFAULT_HANDLE),
                        new Edge("e2", "remember", "first", Edge.DEFAULT_HANDLE),
                        new Edge("e3", "first", "review", Edge.DEFAULT_HANDLE),
                        new Edge("e4", "review", "approved", "approve"))),
                DataTree.of(Map.of()), List.of(), List.of(new ConversationVariable("v1", "topic", "string", "none",
                        "")));
    }

    private static Node answer(String id, String text) {
        return Node.of(id, NodeType.ANSWER, Map.of("type", "answer", "title", id, "answer", text));
    }

    private ChatReply say(String query) {
        return send.send(new SendChatMessageCommand(ChatBed.CHAT_APP, null, ChatBed.ADA, query, Map.of(), List.of(),
                null, false), RunObserver.NONE).await();
    }

    @Test
    void aTurnThatPausesKeepsItsAnswerSoFarAndLeavesTheConversationsVariables() {
        ChatReply reply = say("the plan");

        assertThat(reply.run().status()).isEqualTo(RunStatus.PAUSED);
        Message kept = bed.messages.findInConversation(reply.message().conversationId(), reply.message().id())
                .orElseThrow();
        assertThat(kept.status()).isEqualTo(MessageStatus.PAUSED);
        assertThat(kept.answer()).isEqualTo("Checking the plan. ");
        assertThat(kept.workflowRunId()).isEqualTo(reply.run().id());
        assertThat(topic(kept)).as("a half run keeps no variable").isEqualTo("none");
    }

    @Test
    void theAnsweredFormsRunCompletesTheSameMessageAndKeepsTheVariablesItLeaves() throws Exception {
        ChatReply reply = say("the plan");
        String token = forms.waitingOf(ChatBed.CHAT_APP, reply.run().id()).get(0).form().formToken();

        forms.answer(ChatBed.CHAT_APP, token, ChatBed.ADA, "approve", Map.of("note", "go ahead"));

        Message ended = ended(reply.message());
        assertThat(ended.answer()).isEqualTo("Checking the plan. Approved: go ahead");
        assertThat(ended.error()).isNull();
        assertThat(ended.workflowRunId()).isEqualTo(reply.run().id());
        assertThat(topic(ended)).isEqualTo("the plan");
        assertThat(bed.messages.awaitingAnswer()).isEmpty();
    }

    @Test
    void aConversationDeletedWhileItsTurnWaitsLeavesTheRunToEndWithNothingKept() throws Exception {
        ChatReply reply = say("the plan");
        String token = forms.waitingOf(ChatBed.CHAT_APP, reply.run().id()).get(0).form().formToken();
        assertThat(bed.conversations.delete(ChatBed.CHAT_APP, reply.message().endUserId(),
                reply.message().conversationId())).isTrue();

        forms.answer(ChatBed.CHAT_APP, token, ChatBed.ADA, "reject", Map.of("note", "no"));

        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!runs.find(ChatBed.CHAT_APP, reply.run().id()).orElseThrow().status().isTerminal()) {
            assertThat(System.nanoTime()).as("the run ends").isLessThan(until);
            Thread.sleep(5);
        }
        assertThat(runs.find(ChatBed.CHAT_APP, reply.run().id()).orElseThrow().status())
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(bed.messages.findInConversation(reply.message().conversationId(), reply.message().id()))
                .isEmpty();
    }

    private String topic(Message message) {
        return bed.variables.all(message.conversationId()).stream().map(KeptVariable::variable)
                .filter(variable -> variable.name().equals("topic")).findFirst().orElseThrow().value().toString();
    }

    private Message ended(Message paused) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            Message message = bed.messages.findInConversation(paused.conversationId(), paused.id()).orElseThrow();
            if (message.status() != MessageStatus.PAUSED) {
                return message;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("message " + paused.id() + " stayed paused");
    }
}
