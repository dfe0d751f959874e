package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.EndUsers;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.NodeStatus;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.ChatTurn;
import dev.hexaflow.workflow.nodes.LlmNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Checks a chat message in Dify's order (user, app mode, query, conversation), then runs the chatflow through
 * the workflow run use case, with the conversation's turn: its variables, its history and its dialogue count.
 * What the turn changes is kept by the observer it puts in front of the caller's, as the run's events come: the
 * new conversation and the message at the run's start, the conversation variables before its end, the whole
 * message at its end. A client that leaves changes none of it.
 */
public final class SendChatMessageService implements SendChatMessageUseCase {

    /** The nodes whose failure is a model call's: their run fails with Dify's code for a model failure. */
    private static final java.util.Set<NodeType> MODEL_NODES = java.util.EnumSet.of(NodeType.LLM, NodeType.AGENT,
            NodeType.QUESTION_CLASSIFIER, NodeType.PARAMETER_EXTRACTOR);

    /** How many earlier messages Dify reads for a chatflow's memory. */
    static final int HISTORY = 500;
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}");

    private final ChatAccess access;
    private final RunWorkflowUseCase runs;
    private final EndUserRepository endUsers;
    private final ConversationRepository conversations;
    private final MessageRepository messages;
    private final ConversationVariableRepository variables;
    private final RenameConversationUseCase rename;
    private final Executor naming;
    private final Clock clock;
    private final Supplier<String> ids;
    private final MessageFileLinks links;
    private final System.Logger log = System.getLogger(SendChatMessageService.class.getName());

    /**
     * @param naming     runs the model's renaming of new conversations, after their first turn
     * @param signatures signs the URLs of the messages' uploaded and tool files, each time they are shown
     */
    public SendChatMessageService(ChatAccess access, RunWorkflowUseCase runs, EndUserRepository endUsers,
            ConversationRepository conversations, MessageRepository messages,
            ConversationVariableRepository variables, RenameConversationUseCase rename, Executor naming,
            Clock clock, Supplier<String> ids, FileSignatures signatures) {
        this.access = access;
        this.runs = runs;
        this.endUsers = endUsers;
        this.conversations = conversations;
        this.messages = messages;
        this.variables = variables;
        this.rename = rename;
        this.naming = naming;
        this.clock = clock;
        this.ids = ids;
        this.links = new MessageFileLinks(signatures);
    }

    @Override
    public ChatUnderWay send(SendChatMessageCommand command, RunObserver observer) {
        String user = EndUsers.requireId(command.user());
        access.chatApp(command.appId());
        if (command.query() == null) {
            throw new ApiException(ApiError.INVALID_PARAM, "query is required");
        }
        String requested = command.conversationId() == null ? "" : command.conversationId().strip();
        Turn turn;
        if (requested.isEmpty()) {
            // A time-ordered id: conversations begun in the same second list in the order they began.
            turn = new Turn(null, ChatTurn.first(command.query(), ids.get()), null);
        } else {
            if (!UUID_TEXT.matcher(requested).matches()) {
                throw new ApiException(ApiError.INVALID_PARAM, "conversation_id must be a valid UUID");
            }
            Conversation conversation = access.conversation(command.appId(), user, requested);
            if (!conversation.isOpen()) {
                throw new ApiException(ApiError.CONVERSATION_COMPLETED,
                        "The conversation has ended. Please start a new conversation.");
            }
            turn = turnOf(conversation, command.query());
        }
        long now = clock.instant().getEpochSecond();
        // The same end user the run finds or makes: the conversation is theirs from its first event on.
        EndUser endUser = endUsers.findOrAdd(new EndUser(ids.get(), command.appId(), user, now));
        Keeper keeper = new Keeper(command, turn, endUser.id(), ids.get(), now, observer);
        RunUnderWay run = runs.start(new RunWorkflowCommand(command.appId(), command.workflowId(), user,
                command.inputs(), command.files(), turn.chat), keeper);
        var done = run.done().whenComplete((kept, failure) -> {
            if (failure != null) {
                keeper.endUnkept(failure);
            }
        }).thenApply(kept -> new ChatReply(kept, links.shown(keeper.finished), keeper.usage,
                kept.status() == RunStatus.FAILED && keeper.modelNodeFailed));
        if (turn.conversation == null && command.autoGenerateName()) {
            done.thenRun(() -> nameLater(command.appId(), user, turn.chat.conversationId()));
        }
        return new ChatUnderWay(keeper.messageId, turn.chat.conversationId(), run.taskId(), run.runId(), now,
                keeper::answerFiles,
                done);
    }

    /** A kept conversation's next turn: its variables as it holds them, its history, its count. */
    private Turn turnOf(Conversation conversation, String query) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (KeptVariable kept : variables.all(conversation.id())) {
            values.put(kept.variable().name(), kept.variable().value());
        }
        List<Message> earlier = messages.last(conversation.id(), HISTORY);
        // A turn with no answer (under way, or cut off by a crash or a failed write) leaves the model nothing to
        // remember: Dify drops such a newest turn; a cut-off one is dropped wherever it is.
        List<ChatTurn.PastMessage> history = earlier.stream().filter(message -> !message.answer().isEmpty())
                .map(message -> new ChatTurn.PastMessage(message.query(), message.answer())).toList();
        int count = Math.toIntExact(messages.count(conversation.id()) + 1);
        String parent = earlier.isEmpty() ? null : earlier.get(earlier.size() - 1).id();
        return new Turn(conversation, new ChatTurn(query, conversation.id(), count, values, history), parent);
    }

    /** Dify names a new conversation through the model after its first turn; a model that fails leaves the name. */
    private void nameLater(String appId, String user, String conversationId) {
        naming.execute(() -> {
            try {
                rename.rename(new RenameConversationCommand(appId, user, conversationId, null, true));
            } catch (RuntimeException e) {
                log.log(System.Logger.Level.DEBUG, "Conversation " + conversationId + " keeps its first name: "
                        + e);
            }
        });
    }

    /** @param conversation the kept conversation, or null when this turn begins one */
    private record Turn(Conversation conversation, ChatTurn chat, String parentMessageId) {
    }

    /** Keeps what each event of the turn's run changes, then passes the event on; one event at a time. */
    private final class Keeper implements RunObserver {

        private final SendChatMessageCommand command;
        private final Turn turn;
        private final String endUserId;
        private final String messageId;
        private final long createdAt;
        private final RunObserver next;
        private final StringBuilder answer = new StringBuilder();
        private final List<MessageFile> answerFiles = new ArrayList<>();
        private final Map<String, List<MessageFile>> answerFilesByNode = new ConcurrentHashMap<>();
        private Conversation conversation;
        private volatile Message message;
        private volatile Message finished;
        private volatile TurnUsage usage = TurnUsage.NONE;
        private List<Map<String, Object>> cited = List.of();
        private boolean showSources;
        private volatile boolean modelNodeFailed;

        Keeper(SendChatMessageCommand command, Turn turn, String endUserId, String messageId,
                long createdAt, RunObserver next) {
            this.command = command;
            this.turn = turn;
            this.endUserId = endUserId;
            this.messageId = messageId;
            this.createdAt = createdAt;
            this.next = next;
            this.conversation = turn.conversation;
        }

        @Override
        public void on(RunEvent event) {
            if (event instanceof RunEvent.WorkflowStarted started) {
                begin(started.run());
            } else if (event instanceof RunEvent.TextChunk chunk) {
                answer.append(chunk.text());
            } else if (event instanceof RunEvent.NodeFinished node) {
                usage = usage.plus(usageOf(node.execution().outputs()));
                modelNodeFailed |= node.execution().status() == NodeStatus.FAILED
                        && MODEL_NODES.contains(node.execution().nodeType());
                cited = citedBy(node.execution().processData()).orElse(cited);
                if (node.execution().nodeType() == NodeType.ANSWER && node.execution().outputs() != null) {
                    List<MessageFile> shown = answerFilesOf(node.execution().outputs().get("files"));
                    answerFiles.addAll(shown);
                    answerFilesByNode.put(node.execution().id(), shown);
                }
            } else if (event instanceof RunEvent.ConversationVariables values) {
                keepVariables(values.values());
            } else if (event instanceof RunEvent.WorkflowFinished end) {
                end(end.run());
            }
            next.on(event);
        }

        List<MessageFile> answerFiles(String nodeExecutionId) {
            return answerFilesByNode.getOrDefault(nodeExecutionId, List.of()).stream().map(links::shown).toList();
        }

        private void begin(WorkflowRun run) {
            Workflow workflow = access.workflow(command.appId());
            showSources = workflow.features().tree("retriever_resource").bool("enabled", false);
            if (conversation == null) {
                String opening = workflow.features().string("opening_statement", "");
                conversation = Conversation.start(turn.chat.conversationId(), command.appId(), endUserId,
                        command.query(), command.inputs(), Conversation.introduction(opening, command.inputs()),
                        createdAt);
                conversations.add(conversation);
                variables.addAll(KeptVariable.defaultsOf(conversation.id(), workflow.conversationVariables(),
                        createdAt));
            }
            message = Message.started(messageId, conversation.id(), command.appId(), endUserId,
                    turn.parentMessageId, command.inputs(), command.query(), userFiles(run.inputs().get("sys.files")),
                    run.id(), null, createdAt);
            messages.add(message);
        }

        private void keepVariables(Map<String, Object> values) {
            long now = clock.instant().getEpochSecond();
            List<KeptVariable> changed = new ArrayList<>();
            for (KeptVariable kept : variables.all(conversation.id())) {
                String name = kept.variable().name();
                if (values.containsKey(name) && !java.util.Objects.equals(values.get(name), kept.variable().value())) {
                    changed.add(kept.withRunValue(values.get(name), now));
                }
            }
            if (!changed.isEmpty()) {
                variables.updateAll(changed);
            }
        }

        private void end(WorkflowRun run) {
            MessageStatus status = run.status() == RunStatus.STOPPED ? MessageStatus.STOPPED
                    : run.status() == RunStatus.FAILED ? MessageStatus.ERROR : MessageStatus.NORMAL;
            String error = status == MessageStatus.ERROR
                    ? (run.error() == null || run.error().isBlank() ? "Run failed." : run.error()) : run.error();
            Message done = message.finish(new Message.TurnOutcome(answer.toString(), status, error, run.id(),
                    usage.promptTokens(), usage.completionTokens(), run.elapsedTime(),
                    showSources ? cited : List.of(), answerFiles));
            // A conversation deleted while its turn ran took the message with it: there is nothing left to keep.
            // A message missing from a conversation that is still there was never kept: the turn is not answered
            // as if it were.
            if (messages.finish(done)) {
                conversations.update(conversation.touched(clock.instant().getEpochSecond()));
            } else if (conversations.find(command.appId(), endUserId, conversation.id()).isPresent()) {
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
                messages.finish(started.interrupted(error));
            } catch (RuntimeException e) {
                log.log(System.Logger.Level.WARNING, "Message " + started.id() + " stays unfinished until "
                        + "the store recovers: " + e);
            }
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
        return filesOf(sysFiles).stream().map(file -> messageFile(file, ids.get(), "user")).toList();
    }

    /**
     * An answer node's files output as the answer's message files: each keeps the file's own id, so that a
     * stream's {@code message_file} frame and the kept message name the same file.
     */
    private List<MessageFile> answerFilesOf(Object filesOutput) {
        return filesOf(filesOutput).stream().map(file -> messageFile(file, file.id(), "assistant")).toList();
    }

    private static List<FileValue> filesOf(Object value) {
        return value instanceof List<?> list ? list.stream().filter(FileValue.class::isInstance)
                .map(FileValue.class::cast).toList() : List.of();
    }

    /** An upload or a tool file is kept at its unsigned path, signed as it is shown; any other at its own URL. */
    private MessageFile messageFile(FileValue file, String id, String belongsTo) {
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
