package dev.hexaflow.application.chat;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryConversationRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryConversationVariableRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryMessageRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.chat.service.ChatAccess;
import dev.hexaflow.application.chat.service.SystemModel;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageStatus;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.ConversationVariable;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The chat use cases' surroundings, in memory: a chatflow app and a workflow app, end users Ada and Bob of the
 * chatflow, a clock that moves when told, and a model that answers what it is told to. The chatflow's DSL is
 * read by a fake reader, which answers {@link #workflow} (the YAML reader learns chatflows apart).
 */
final class ChatBed {

    static final String CHAT_APP = "app-chat";
    static final String FLOW_APP = "app-flow";
    static final String ADA = "ada";
    static final String BOB = "bob";

    final InMemoryAppRepository apps = new InMemoryAppRepository();
    final InMemoryEndUserRepository endUsers = new InMemoryEndUserRepository();
    final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    final InMemoryMessageRepository messages = new InMemoryMessageRepository();
    final InMemoryConversationVariableRepository variables = new InMemoryConversationVariableRepository();
    final InMemoryConversationRepository conversations = new InMemoryConversationRepository(messages, variables);
    final MovableClock clock = new MovableClock(1_000);
    final FakeModel model = new FakeModel();
    final Supplier<String> ids = new Supplier<>() {
        private int next;

        @Override
        public synchronized String get() {
            return "id-" + (++next);
        }
    };
    Map<String, Object> features = Map.of("suggested_questions_after_answer", Map.of("enabled", true));
    /** Whether the chatflow has its LLM node; without one, titles and suggestions ask the server's model. */
    boolean llmNode = true;
    /** Signs with a digest of a fixed key and the message, and a constant nonce: what file URLs need here. */
    final FileSignatures signatures = new FileSignatures(message -> {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update("test-key|".getBytes(StandardCharsets.UTF_8));
            return digest.digest(message);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }, length -> "n".repeat(length), clock);
    final ChatAccess access;
    final SystemModel systemModel;

    ChatBed() {
        apps.add(app(CHAT_APP, AppInfo.ADVANCED_CHAT_MODE, "chatcode1"));
        apps.add(app(FLOW_APP, AppInfo.WORKFLOW_MODE, "flowcode1"));
        versions.add(new WorkflowVersion("ver-1", CHAT_APP, "v1", "dsl", SecretHash.of("dsl"), 1));
        endUsers.findOrAdd(new EndUser("e-ada", CHAT_APP, ADA, 1));
        endUsers.findOrAdd(new EndUser("e-bob", CHAT_APP, BOB, 1));
        access = new ChatAccess(apps, endUsers, conversations, versions, dsl -> workflow());
        systemModel = new SystemModel(model, "openai", "gpt-fallback");
    }

    /**
     * The chatflow as published: one LLM node whose model titles and suggestions use (unless {@link #llmNode} is
     * off), and {@link #features}.
     */
    Workflow workflow() {
        Node llm = Node.of("llm", NodeType.LLM, Map.of("type", "llm", "title", "LLM",
                "model", Map.of("provider", "langgenius/openai/openai", "name", "gpt-4o", "mode", "chat")));
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start"));
        return new Workflow(new AppInfo("Chat", AppInfo.ADVANCED_CHAT_MODE, null, null, null, "", false), "0.3.0",
                new Graph(llmNode ? List.of(start, llm) : List.of(start), List.of()), DataTree.of(features),
                List.of(), List.of(new ConversationVariable("v1", "topic", "string", "none", "")));
    }

    /** A conversation of the end user with the chatflow, begun at the clock's time. */
    Conversation conversation(String id, String user, String query) {
        String endUser = endUsers.find(CHAT_APP, user).orElseThrow().id();
        Conversation conversation = Conversation.start(id, CHAT_APP, endUser, query, Map.of(), "",
                clock.instant().getEpochSecond());
        conversations.add(conversation);
        return conversation;
    }

    /** A whole turn of the conversation, at the clock's time. */
    Message turn(String id, Conversation conversation, String query, String answer) {
        Message started = Message.started(id, conversation.id(), conversation.appId(), conversation.endUserId(),
                null, Map.of(), query, List.of(), "run-" + id, "task-" + id, clock.instant().getEpochSecond());
        messages.add(started);
        Message finished = started.finish(new Message.TurnOutcome(answer, MessageStatus.NORMAL, null, null, 5, 7,
                0.5, List.of(), List.of()));
        messages.finish(finished);
        return finished;
    }

    /** The DSL's variables, as a new conversation gets them. */
    List<KeptVariable> variablesOf(Conversation conversation, ConversationVariable... declared) {
        List<KeptVariable> kept = new ArrayList<>();
        for (int i = 0; i < declared.length; i++) {
            kept.add(new KeptVariable(conversation.id(), declared[i], i, conversation.createdAt(),
                    conversation.createdAt()));
        }
        variables.addAll(kept);
        return kept;
    }

    private static App app(String id, String mode, String siteCode) {
        return new App(id, "App " + id, "", mode, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "desc", "©", "https://p", "", "en-US", true,
                        false), siteCode, true, 1);
    }

    /** A clock that stands still until moved. */
    static final class MovableClock extends Clock {
        private long seconds;

        MovableClock(long seconds) {
            this.seconds = seconds;
        }

        void advance(long by) {
            seconds += by;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochSecond(seconds);
        }
    }

    /** A model port that answers the next text it was given (or fails), and keeps the requests it got. */
    static final class FakeModel implements ModelProvider {
        final List<ChatRequest> requests = new ArrayList<>();
        boolean configured = true;
        private final List<Object> answers = new ArrayList<>();

        void answers(String text) {
            answers.add(text);
        }

        void fails() {
            answers.add(new ModelException("upstream said 500", null));
        }

        @Override
        public boolean isConfigured() {
            return configured;
        }

        @Override
        public synchronized ChatResult chat(ChatRequest request, Consumer<String> onText, StopSignal stop) {
            requests.add(request);
            if (answers.isEmpty()) {
                throw new AssertionError("the model was asked without an answer set up");
            }
            Object next = answers.remove(0);
            if (next instanceof ModelException failure) {
                throw failure;
            }
            onText.accept((String) next);
            return new ChatResult((String) next, Usage.NONE, "stop", List.of());
        }
    }
}
