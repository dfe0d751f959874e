package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.SendChatMessageCommand;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.TurnUsage;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.domain.chat.AgentThought;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.nodes.LlmNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Keeps what each event of a chat turn's run changes, then passes the event on; one event at a time: the new
 * conversation and the message at the run's start, the conversation variables before its end, the whole message
 * at its end. A run that pauses for a form leaves the message paused with the answer so far (and the variables as
 * they were: a half run changes none); when it goes on, a keeper made from that message appends the rest of the
 * answer and keeps the turn's end.
 */
final class TurnKeeper implements RunObserver {

    /** The nodes whose failure is a model call's: their run fails with Dify's code for a model failure. */
    private static final Set<NodeType> MODEL_NODES = EnumSet.of(NodeType.LLM, NodeType.AGENT,
            NodeType.QUESTION_CLASSIFIER, NodeType.PARAMETER_EXTRACTOR);

    /** What a keeper reads and writes: the chat's stores, the clock, new ids, and the files' signed links. */
    record Stores(ChatAccess access, ConversationRepository conversations, MessageRepository messages,
            ConversationVariableRepository variables, Clock clock, Supplier<String> ids, MessageFileLinks links) {
    }

    /**
     * A turn about to start: the request, the conversation it goes on (null when it begins one, under
     * {@code conversationId}), the message it answers after, and the ids and time of its message.
     */
    record NewTurn(SendChatMessageCommand command, Conversation conversation, String conversationId,
            String parentMessageId, String endUserId, String messageId, long createdAt) {
    }

    private final Stores stores;
    private final NewTurn turn;
    private final String appId;
    private final RunObserver next;
    private final StringBuilder answer = new StringBuilder();
    private final List<MessageFile> answerFiles = new ArrayList<>();
    private final Map<String, List<MessageFile>> answerFilesByNode = new ConcurrentHashMap<>();
    private final System.Logger log = System.getLogger(TurnKeeper.class.getName());
    private Conversation conversation;
    private volatile Message message;
    private volatile Message finished;
    private volatile TurnUsage usage = TurnUsage.NONE;
    private List<Map<String, Object>> cited = List.of();
    private boolean showSources;
    private volatile boolean modelNodeFailed;
    /** An agent-chat turn's rounds, kept with its message as Dify keeps them; null for other apps. */
    private volatile AgentThought.Collector thoughts;

    private TurnKeeper(Stores stores, NewTurn turn, String appId, Conversation conversation, RunObserver next) {
        this.stores = stores;
        this.turn = turn;
        this.appId = appId;
        this.conversation = conversation;
        this.next = next;
    }

    /** The keeper of a turn that starts now; {@code next} hears each event after it. */
    static TurnKeeper starting(Stores stores, NewTurn turn, RunObserver next) {
        return new TurnKeeper(stores, turn, turn.command().appId(), turn.conversation(), next);
    }

    /** The keeper of a paused turn's run going on: it completes the paused message of the conversation. */
    static TurnKeeper resuming(Stores stores, Message paused, Conversation conversation) {
        TurnKeeper keeper = new TurnKeeper(stores, null, paused.appId(), conversation, RunObserver.NONE);
        keeper.message = paused;
        keeper.answer.append(paused.answer());
        keeper.usage = new TurnUsage(paused.messageTokens(), paused.answerTokens(),
                paused.messageTokens() + paused.answerTokens(), 0);
        keeper.cited = paused.retrieverResources();
        if (!paused.agentThoughts().isEmpty()) {
            keeper.thoughts = new AgentThought.Collector(paused.id(), paused.agentThoughts());
        }
        return keeper;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.WorkflowStarted started) {
            begin(started.run());
        } else if (event instanceof RunEvent.WorkflowResumed) {
            showSources = sourcesShown(stores.access().workflow(appId));
        } else if (event instanceof RunEvent.TextChunk chunk) {
            answer.append(chunk.text());
        } else if (event instanceof RunEvent.NodeFinished node) {
            nodeFinished(node);
        } else if (event instanceof RunEvent.AgentLogged logged && thoughts != null) {
            thoughts.add(logged, stores.clock().instant().getEpochSecond());
        } else if (event instanceof RunEvent.ConversationVariables values) {
            keepVariables(values.values());
        } else if (event instanceof RunEvent.WorkflowFinished end) {
            end(end.run());
        } else if (event instanceof RunEvent.WorkflowPaused paused) {
            keep(outcome(paused.run(), MessageStatus.PAUSED, null));
        }
        next.on(event);
    }

    /** The message as kept at the turn's end (or pause), signed to be shown; null before. */
    Message finished() {
        return finished == null ? null : stores.links().shown(finished);
    }

    TurnUsage usage() {
        return usage;
    }

    boolean modelNodeFailed() {
        return modelNodeFailed;
    }

    List<MessageFile> answerFiles(String nodeExecutionId) {
        return answerFilesByNode.getOrDefault(nodeExecutionId, List.of()).stream().map(stores.links()::shown)
                .toList();
    }

    private void nodeFinished(RunEvent.NodeFinished node) {
        usage = usage.plus(usageOf(node.execution().outputs()));
        modelNodeFailed |= node.execution().status() == NodeStatus.FAILED
                && MODEL_NODES.contains(node.execution().nodeType());
        cited = citedBy(node.execution().processData()).orElse(cited);
        if (node.execution().nodeType() == NodeType.ANSWER && node.execution().outputs() != null) {
            List<MessageFile> shown = answerFilesOf(node.execution().outputs().get("files"));
            answerFiles.addAll(shown);
            answerFilesByNode.put(node.execution().id(), shown);
        }
    }

    private void begin(WorkflowRun run) {
        begin(userFiles(run.inputs().get("sys.files")), run.id());
    }

    /**
     * A turn an annotation answered, with no run: the conversation and message kept as a run's start and end keep
     * them, and the next observer told the answer as one text chunk, as Dify streams it.
     */
    void answerWith(String text) {
        begin(List.of(), null);
        answer.append(text);
        next.on(new RunEvent.TextChunk(text, List.of()));
        keep(message.finish(new Message.TurnOutcome(text, MessageStatus.NORMAL, null, null, 0, 0, 0, List.of(),
                List.of())));
    }

    private void begin(List<MessageFile> userFiles, String runId) {
        SendChatMessageCommand command = turn.command();
        Workflow workflow = stores.access().workflow(appId);
        showSources = sourcesShown(workflow);
        if (AppInfo.AGENT_CHAT_MODE.equals(workflow.app().mode())) {
            thoughts = new AgentThought.Collector(turn.messageId(), List.of());
        }
        if (conversation == null) {
            String opening = workflow.features().string("opening_statement", "");
            conversation = Conversation.start(turn.conversationId(), appId, turn.endUserId(), command.query(),
                    command.inputs(), Conversation.introduction(opening, command.inputs()), turn.createdAt());
            stores.conversations().add(conversation);
            stores.variables().addAll(KeptVariable.defaultsOf(conversation.id(), workflow.conversationVariables(),
                    turn.createdAt()));
        }
        message = Message.started(turn.messageId(), conversation.id(), appId, turn.endUserId(),
                turn.parentMessageId(), command.inputs(), command.query(), userFiles, runId, null, turn.createdAt());
        stores.messages().add(message);
    }

    private static boolean sourcesShown(Workflow workflow) {
        return workflow.features().tree("retriever_resource").bool("enabled", false);
    }

    private void keepVariables(Map<String, Object> values) {
        long now = stores.clock().instant().getEpochSecond();
        List<KeptVariable> changed = new ArrayList<>();
        for (KeptVariable kept : stores.variables().all(conversation.id())) {
            String name = kept.variable().name();
            if (values.containsKey(name) && !Objects.equals(values.get(name), kept.variable().value())) {
                changed.add(kept.withRunValue(values.get(name), now));
            }
        }
        if (!changed.isEmpty()) {
            stores.variables().updateAll(changed);
        }
    }

    private void end(WorkflowRun run) {
        MessageStatus status = run.status() == RunStatus.STOPPED ? MessageStatus.STOPPED
                : run.status() == RunStatus.FAILED ? MessageStatus.ERROR : MessageStatus.NORMAL;
        String error = status == MessageStatus.ERROR
                ? (run.error() == null || run.error().isBlank() ? "Run failed." : run.error()) : run.error();
        keep(outcome(run, status, error));
    }

    /** The message as the run leaves it: the whole answer so far, and what the turn cost so far. */
    private Message outcome(WorkflowRun run, MessageStatus status, String error) {
        return message.finish(new Message.TurnOutcome(answer.toString(), status, error, run.id(),
                usage.promptTokens(), usage.completionTokens(), run.elapsedTime(),
                showSources ? cited : List.of(), answerFiles))
                .withAgentThoughts(thoughts == null ? message.agentThoughts() : thoughts.thoughts());
    }

    private void keep(Message done) {
        // A conversation deleted while its turn ran took the message with it: there is nothing left to keep.
        // A message missing from a conversation that is still there was never kept: the turn is not answered
        // as if it were.
        if (stores.messages().finish(done)) {
            stores.conversations().update(conversation.touched(stores.clock().instant().getEpochSecond()));
        } else if (stores.conversations().find(appId, conversation.endUserId(), conversation.id()).isPresent()) {
            throw new IllegalStateException("Message " + done.id() + " of conversation " + conversation.id()
                    + " could not be completed: its start is not in the store");
        }
        finished = done;
    }

    /**
     * The run's end could not be kept (the store failed): the message ends {@code error} rather than stay
     * waiting for an answer; when even that fails, the next start or the store's recovery ends it.
     */
    void endUnkept(Throwable failure) {
        Message started = message;
        if (started == null || finished != null) {
            return;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        String error = cause.getMessage() == null || cause.getMessage().isBlank()
                ? InterruptedTurns.SERVER_STOPPED : cause.getMessage();
        try {
            stores.messages().finish(started.interrupted(error));
        } catch (RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "Message " + started.id() + " stays unfinished until "
                    + "the store recovers: " + e);
        }
    }

    /**
     * The knowledge an llm node's context cited, as it names it ({@link LlmNode#RETRIEVER_RESOURCES}): the last
     * node's that cites any is the turn's, as Dify keeps the last retriever-resources event.
     */
    @SuppressWarnings("unchecked")
    static Optional<List<Map<String, Object>>> citedBy(Map<String, Object> processData) {
        if (processData == null || !(processData.get(LlmNode.RETRIEVER_RESOURCES) instanceof List<?> list)
                || list.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(List.copyOf((List<Map<String, Object>>) list));
    }

    /**
     * The turn's files (sys.files) as the user's message files, each under a new id as Dify's message_files rows.
     */
    private List<MessageFile> userFiles(Object sysFiles) {
        return filesOf(sysFiles).stream().map(file -> messageFile(file, stores.ids().get(), "user")).toList();
    }

    /**
     * An answer node's files output as the answer's message files: each keeps the file's own id, so that a
     * stream's {@code message_file} frame and the kept message name the same file.
     */
    private static List<MessageFile> answerFilesOf(Object filesOutput) {
        return filesOf(filesOutput).stream().map(file -> messageFile(file, file.id(), "assistant")).toList();
    }

    private static List<FileValue> filesOf(Object value) {
        return value instanceof List<?> list ? list.stream().filter(FileValue.class::isInstance)
                .map(FileValue.class::cast).toList() : List.of();
    }

    /** An upload or a tool file is kept at its unsigned path, signed as it is shown; any other at its own URL. */
    private static MessageFile messageFile(FileValue file, String id, String belongsTo) {
        String url = MessageFileLinks.keptUrl(file);
        return new MessageFile(id, file.filename(), file.type(), url, file.mimeType(), file.size(),
                file.transferMethod(), belongsTo, file.relatedId());
    }

    /** A model node's usage output, as Dify's LLMUsage dict holds it; none for other nodes. */
    static TurnUsage usageOf(Map<String, Object> outputs) {
        if (outputs == null || !(outputs.get("usage") instanceof Map<?, ?> usage)) {
            return TurnUsage.NONE;
        }
        return new TurnUsage(number(usage.get("prompt_tokens")), number(usage.get("completion_tokens")),
                number(usage.get("total_tokens")), usage.get("latency") instanceof Number n ? n.doubleValue() : 0);
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }
}
