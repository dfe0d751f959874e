package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.clients.model.OpenAiCompatibleEmbeddings;
import dev.hexaflow.adapters.clients.model.OpenAiCompatibleSpeechTranscriber;
import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.model.OpenAiCompatibleModelProvider;
import dev.hexaflow.adapters.nodes.model.OpenAiCompatibleSpeechSynthesizer;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiConversationVariableRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiMessageRepository;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.chat.port.in.AudioToTextUseCase;
import dev.hexaflow.application.chat.port.in.BrowseConversationsUseCase;
import dev.hexaflow.application.chat.port.in.DeleteConversationUseCase;
import dev.hexaflow.application.chat.port.in.GiveFeedbackUseCase;
import dev.hexaflow.application.chat.port.in.ListAppFeedbacksUseCase;
import dev.hexaflow.application.chat.port.in.ListConversationVariablesUseCase;
import dev.hexaflow.application.chat.port.in.ListConversationsUseCase;
import dev.hexaflow.application.chat.port.in.ListMessagesUseCase;
import dev.hexaflow.application.chat.port.in.RenameConversationUseCase;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase;
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase;
import dev.hexaflow.application.chat.port.in.StopChatMessageUseCase;
import dev.hexaflow.application.chat.port.in.SuggestQuestionsUseCase;
import dev.hexaflow.application.chat.port.in.TextToAudioUseCase;
import dev.hexaflow.application.chat.port.in.UpdateConversationVariableUseCase;
import dev.hexaflow.application.chat.port.out.ConversationRepository;
import dev.hexaflow.application.chat.port.out.ConversationVariableRepository;
import dev.hexaflow.application.chat.port.out.MessageRepository;
import dev.hexaflow.application.chat.port.out.SpeechTranscriber;
import dev.hexaflow.application.chat.service.AudioToTextService;
import dev.hexaflow.application.chat.service.ChatAccess;
import dev.hexaflow.application.chat.service.BrowseConversationsService;
import dev.hexaflow.application.chat.service.DeleteConversationService;
import dev.hexaflow.application.chat.service.GiveFeedbackService;
import dev.hexaflow.application.chat.service.InterruptedTurns;
import dev.hexaflow.application.chat.service.ListAppFeedbacksService;
import dev.hexaflow.application.chat.service.ListConversationVariablesService;
import dev.hexaflow.application.chat.service.ListConversationsService;
import dev.hexaflow.application.chat.service.ListMessagesService;
import dev.hexaflow.application.chat.service.RenameConversationService;
import dev.hexaflow.application.chat.service.ResumedChatTurns;
import dev.hexaflow.application.chat.service.SendChatMessageService;
import dev.hexaflow.application.chat.service.SendCompletionMessageService;
import dev.hexaflow.application.chat.service.StopChatMessageService;
import dev.hexaflow.application.chat.service.SuggestQuestionsService;
import dev.hexaflow.application.chat.service.SystemModel;
import dev.hexaflow.application.chat.service.TextToAudioService;
import dev.hexaflow.application.chat.service.UpdateConversationVariableService;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.knowledge.port.out.Embeddings;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.application.runs.port.out.ResumedTurns;
import dev.hexaflow.application.runs.port.out.RunRepository;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.SpeechSynthesizer;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;

/**
 * The chat service's use cases (conversations, history, feedback, conversation variables, titles and suggested
 * questions) on the Jdbi repositories. The repositories are exposed too, for the use case that sends a message,
 * which keeps a turn's conversation, message and variables.
 */
public final class ChatModule implements AutoCloseable {

    /**
     * The model asked for titles and suggestions when a chatflow has no LLM node to take it from: Dify asks its
     * workspace's default model; the model map of the configuration ({@code *}) can send it anywhere.
     */
    static final String FALLBACK_PROVIDER = "openai";
    static final String FALLBACK_MODEL = "gpt-4o-mini";
    /** The voice text-to-audio speaks in when neither the request nor the app's feature names one, as the engine's. */
    static final String DEFAULT_VOICE = "alloy";
    /** The model audio-to-text asks the endpoint for: OpenAI's, which compatible servers (whisper.cpp, vLLM) take. */
    static final String DEFAULT_TRANSCRIPTION_MODEL = "whisper-1";

    final ConversationRepository conversations;
    final MessageRepository messages;
    final ConversationVariableRepository variables;

    public final ListConversationsUseCase listConversations;
    public final DeleteConversationUseCase deleteConversation;
    public final RenameConversationUseCase renameConversation;
    public final ListMessagesUseCase listMessages;
    /** The operator's view of every end user's conversations. */
    public final BrowseConversationsUseCase browse;
    public final GiveFeedbackUseCase giveFeedback;
    public final ListAppFeedbacksUseCase listAppFeedbacks;
    public final ListConversationVariablesUseCase listVariables;
    public final UpdateConversationVariableUseCase updateVariable;
    public final SuggestQuestionsUseCase suggestQuestions;

    public final SendChatMessageUseCase send;
    public final StopChatMessageUseCase stop;
    /** Sends and stops a text generator's (completion app's) messages. */
    public final SendCompletionMessageUseCase complete;
    public final TextToAudioUseCase speak;
    public final AudioToTextUseCase listen;
    /** Completes the message of a turn whose chatflow run paused, when the run goes on. */
    public final ResumedTurns resumedTurns;
    /** The chat apps' annotations, which may answer a turn before its run starts. */
    public final AnnotationsModule annotations;

    /**
     * How many new conversations may wait for their name; past that a conversation keeps its first name (its
     * query's start), as when the model fails, rather than let a burst of turns grow the queue without end.
     */
    static final int NAMES_WAITING = 100;

    /** Names new conversations through the model after their first turn, one at a time, off the turns' threads. */
    private final ExecutorService naming = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(NAMES_WAITING), task -> {
                Thread thread = new Thread(task, "hexaflow-chat-names");
                thread.setDaemon(true);
                return thread;
            }, new ThreadPoolExecutor.DiscardPolicy());

    /**
     * With the model endpoint the engine configuration names (none: titles and suggestions are not made), and the
     * workflow module's runs and end users: a chat turn is a run of the app's chatflow.
     */
    public ChatModule(Jdbi jdbi, EngineConfiguration engine, Clock clock, WorkflowModule workflows) {
        this(jdbi, new OpenAiCompatibleModelProvider(engine.llmBaseUrl().orElse(null),
                engine.llmApiKey().orElse(null), engine.models(), Duration.ofSeconds(10), Duration.ofSeconds(120)),
                new OpenAiCompatibleSpeechSynthesizer(engine.llmBaseUrl().orElse(null),
                        engine.llmApiKey().orElse(null), engine.ttsModel(), DEFAULT_VOICE),
                new OpenAiCompatibleSpeechTranscriber(engine.llmBaseUrl().orElse(null),
                        engine.llmApiKey().orElse(null), DEFAULT_TRANSCRIPTION_MODEL),
                clock, workflows.endUserRecords, workflows.appRecords, workflows.versionRecords, workflows.runs.run,
                workflows.runs.stop, workflows.files.fileSignatures, new OpenAiCompatibleEmbeddings(
                        engine.llmBaseUrl().orElse(null), engine.llmApiKey().orElse(null),
                        engine.embeddingModel().orElse(null), Duration.ofSeconds(10), Duration.ofSeconds(120)));
        workflows.resumeChatTurnsWith(resumedTurns);
    }

    /**
     * @param speech   speaks text-to-audio's text
     * @param transcriber writes audio-to-text's text
     * @param endUsers the end users the runs are made for, shared with the run use case
     * @param apps     the apps, shared with the workflow module: one cache, told of what this instance changes
     * @param versions the published versions, shared alike: a version published is the one a turn runs
     * @param run      runs a turn's chatflow
     * @param stop     stops a run under way
     * @param files    signs the URLs of the files the messages show
     */
    public ChatModule(Jdbi jdbi, ModelProvider models, SpeechSynthesizer speech, SpeechTranscriber transcriber, Clock clock,
            EndUserRepository endUsers, AppRepository apps, WorkflowVersionRepository versions, RunWorkflowUseCase run,
            StopTaskUseCase stop, FileSignatures files) {
        this(jdbi, models, speech, transcriber, clock, endUsers, apps, versions, run, stop, files,
                new OpenAiCompatibleEmbeddings(null, null, null, Duration.ofSeconds(10), Duration.ofSeconds(120)));
    }

    /** @param embeddings what annotations' questions are matched with (a model of none: their words) */
    ChatModule(Jdbi jdbi, ModelProvider models, SpeechSynthesizer speech, SpeechTranscriber transcriber, Clock clock,
            EndUserRepository endUsers, AppRepository apps, WorkflowVersionRepository versions, RunWorkflowUseCase run,
            StopTaskUseCase stop, FileSignatures files, Embeddings embeddings) {
        this.conversations = new JdbiConversationRepository(jdbi);
        this.messages = new JdbiMessageRepository(jdbi);
        this.variables = new JdbiConversationVariableRepository(jdbi);
        ChatAccess access = new ChatAccess(apps, endUsers, conversations, versions, new YamlWorkflowDslReader());
        SystemModel model = new SystemModel(models, FALLBACK_PROVIDER, FALLBACK_MODEL);
        TimeOrderedIds ids = new TimeOrderedIds();
        this.listConversations = new ListConversationsService(access, conversations);
        this.deleteConversation = new DeleteConversationService(access, conversations);
        this.renameConversation = new RenameConversationService(access, conversations, messages, model, clock);
        this.listMessages = new ListMessagesService(access, messages, files);
        this.browse = new BrowseConversationsService(access, conversations, messages, files);
        this.giveFeedback = new GiveFeedbackService(access, messages, clock, ids);
        this.listAppFeedbacks = new ListAppFeedbacksService(access, messages);
        this.listVariables = new ListConversationVariablesService(access, variables);
        this.updateVariable = new UpdateConversationVariableService(access, variables, clock);
        this.suggestQuestions = new SuggestQuestionsService(access, messages, model);
        this.annotations = new AnnotationsModule(jdbi, apps, embeddings, clock);
        SendChatMessageService turns = new SendChatMessageService(access, run, endUsers, conversations, messages,
                variables, renameConversation, naming, clock, ids, files, annotations.replies);
        this.send = turns;
        this.complete = new SendCompletionMessageService(access, turns, stop);
        this.stop = new StopChatMessageService(access, stop);
        this.speak = new TextToAudioService(access, messages, speech);
        this.listen = new AudioToTextService(access, transcriber);
        this.resumedTurns = new ResumedChatTurns(access, conversations, messages, variables, clock, ids, files);
    }

    /**
     * Ends as {@code error} the messages of turns whose runs were failed as interrupted (a crash, or writes that
     * failed until storage came back); answers how many. Call after the runs are failed.
     */
    public int closeInterruptedTurns(RunRepository runs) {
        return new InterruptedTurns(messages, runs).close();
    }

    /** Stops naming conversations; a name the model has not given yet is not waited for. */
    @Override
    public void close() {
        naming.shutdownNow();
    }
}
