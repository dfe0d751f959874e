package dev.hexaflow.application.chat.service;

import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase.RenameConversationCommand;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase;
import dev.hexaflow.application.chat.port.out.AnnotationReplies.AnnotatedAnswer;
import dev.hexaflow.application.chat.port.out.AnnotationReplies.AnnotationQuestion;
import dev.hexaflow.application.chat.port.out.AnnotationReplies;
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
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.workflow.engine.ChatTurn;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Checks a chat message in Dify's order (user, app mode, query, conversation), then runs the chatflow through
 * the workflow run use case, with the conversation's turn: its variables, its history and its dialogue count.
 * What the turn changes is kept by the observer it puts in front of the caller's ({@link TurnKeeper}), as the
 * run's events come. A client that leaves changes none of it.
 */
public final class SendChatMessageService implements SendChatMessageUseCase {

    /** How many earlier messages Dify reads for a chatflow's memory. */
    static final int HISTORY = 500;
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}");

    private final ChatAccess access;
    private final RunWorkflowUseCase runs;
    private final EndUserRepository endUsers;
    private final MessageRepository messages;
    private final ConversationVariableRepository variables;
    private final RenameConversationUseCase rename;
    private final Executor naming;
    private final Clock clock;
    private final Supplier<String> ids;
    private final TurnKeeper.Stores stores;
    private final AnnotationReplies annotations;
    private final System.Logger log = System.getLogger(SendChatMessageService.class.getName());

    /**
     * @param naming     runs the model's renaming of new conversations, after their first turn
     * @param signatures signs the URLs of the messages' uploaded and tool files, each time they are shown
     */
    public SendChatMessageService(ChatAccess access, RunWorkflowUseCase runs, EndUserRepository endUsers,
            ConversationRepository conversations, MessageRepository messages,
            ConversationVariableRepository variables, RenameConversationUseCase rename, Executor naming,
            Clock clock, Supplier<String> ids, FileSignatures signatures) {
        this(access, runs, endUsers, conversations, messages, variables, rename, naming, clock, ids, signatures,
                AnnotationReplies.NONE);
    }

    /** @param annotations the app's annotation reply, asked before any run starts */
    public SendChatMessageService(ChatAccess access, RunWorkflowUseCase runs, EndUserRepository endUsers,
            ConversationRepository conversations, MessageRepository messages,
            ConversationVariableRepository variables, RenameConversationUseCase rename, Executor naming,
            Clock clock, Supplier<String> ids, FileSignatures signatures, AnnotationReplies annotations) {
        this.annotations = annotations;
        this.access = access;
        this.runs = runs;
        this.endUsers = endUsers;
        this.messages = messages;
        this.variables = variables;
        this.rename = rename;
        this.naming = naming;
        this.clock = clock;
        this.ids = ids;
        this.stores = new TurnKeeper.Stores(access, conversations, messages, variables, clock, ids,
                new MessageFileLinks(signatures));
    }

    @Override
    public ChatUnderWay send(SendChatMessageCommand command, RunObserver observer) {
        EndUsers.requireId(command.user());
        return turn(command, observer, access.chatApp(command.appId()).mode());
    }

    /** A checked message's turn, of an app of that mode (a text generator's message is a turn of its own). */
    ChatUnderWay turn(SendChatMessageCommand command, RunObserver observer, String mode) {
        String user = EndUsers.requireId(command.user());
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
        String messageId = ids.get();
        TurnKeeper keeper = TurnKeeper.starting(stores, new TurnKeeper.NewTurn(command, turn.conversation,
                turn.chat.conversationId(), turn.parentMessageId, endUser.id(), messageId, now), observer);
        Optional<AnnotatedAnswer> annotated = annotations.answer(new AnnotationQuestion(command.appId(),
                command.query(), messageId, endUser.id()));
        if (annotated.isPresent()) {
            return answered(annotated.get(), keeper, turn, command, now, mode);
        }
        // The run keeps the message's id with a pause, so that the message is completed when the run goes on.
        // A chatbot's or agent's later turn runs on its conversation's inputs, as Dify's ChatAppGenerator does.
        Map<String, Object> inputs = turn.conversation != null && AppInfo.MODEL_CONFIG_MODES.contains(mode)
                ? turn.conversation.inputs() : command.inputs();
        RunUnderWay run = runs.start(new RunWorkflowCommand(command.appId(), command.workflowId(), user,
                inputs, command.files(), turn.chat.withMessageId(messageId)).withKeyId(command.keyId()), keeper);
        var done = run.done().whenComplete((kept, failure) -> {
            if (failure != null) {
                keeper.endUnkept(failure);
            }
        }).thenApply(kept -> new ChatReply(kept, keeper.finished(), keeper.usage(),
                kept.status() == RunStatus.FAILED && keeper.modelNodeFailed()));
        if (turn.conversation == null && command.autoGenerateName()) {
            done.thenRun(() -> nameLater(command.appId(), user, turn.chat.conversationId()));
        }
        return new ChatUnderWay(messageId, turn.chat.conversationId(), run.taskId(), run.runId(), now,
                keeper::answerFiles,
                done, mode);
    }

    /**
     * A turn an annotation answered, as Dify's runner ends one before its workflow starts: the answer kept and
     * streamed, no run (so a task id of its own), and the new conversation named as any other.
     */
    private ChatUnderWay answered(AnnotatedAnswer annotated, TurnKeeper keeper, Turn turn,
            SendChatMessageCommand command, long now, String mode) {
        keeper.answerWith(annotated.answer());
        var reply = CompletableFuture.completedFuture(ChatReply.annotated(keeper.finished(),
                new AnnotationReply(annotated.annotationId())));
        if (turn.conversation == null && command.autoGenerateName()) {
            nameLater(command.appId(), EndUsers.requireId(command.user()), turn.chat.conversationId());
        }
        return new ChatUnderWay(keeper.finished().id(), turn.chat.conversationId(), ids.get(), null, now,
                keeper::answerFiles, reply, mode);
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
}
