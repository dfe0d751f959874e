package dev.hexaflow.adapters.http.wire;

import dev.hexaflow.adapters.http.support.DifyErrors;
import dev.hexaflow.adapters.http.support.PythonTimes;
import dev.hexaflow.adapters.http.sse.RunEventStream;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.TurnUsage;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.domain.chat.Conversation;
import dev.hexaflow.domain.chat.KeptVariable;
import dev.hexaflow.domain.chat.Message;
import dev.hexaflow.domain.chat.MessageFeedback;
import dev.hexaflow.domain.chat.MessageFile;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.KeptForm;
import dev.hexaflow.domain.workflow.ModelUsage;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chat turn and the chat store as Dify's advanced-chat Service API sends them: every stream frame begins with
 * {@code event, conversation_id, message_id, created_at, task_id}; the run's own events keep their workflow
 * payload (from {@link DifyWire}); answer text is {@code message}, an answer's file {@code message_file} after its
 * answer node's {@code node_finished}; the turn ends with {@code message_end} (the answer's files in it), then
 * the answer's speech ({@code tts_message}s and {@code tts_message_end}, when the app speaks at once), with
 * {@code error} when the run failed, or with the run's {@code workflow_paused} alone when it waits for a form; and
 * the blocking ChatbotAppBlockingResponse, or AdvancedChatPausedBlockingResponse for a turn that paused. A chat
 * or agent-chat app's turn (and a completion app's message) sends its message's events alone, as Dify's easy-UI
 * pipeline does: the agent's text as {@code agent_message} and each round as {@code agent_thought}; a
 * completion's frames and blocking answer carry no conversation_id (CompletionAppBlockingResponse).
 */
public final class ChatWire implements RunEventStream.Frames<ChatReply> {

    private static final String ADVANCED_CHAT = "advanced-chat";
    private static final String AGENT_CHAT = "agent-chat";
    private static final String COMPLETION = "completion";

    private final ChatUnderWay turn;
    /** An agent-chat turn's rounds, sent as agent_thought as each ends. */
    private final AgentThoughts thoughts;
    /** The speech of the answer, held until the turn's end: Dify sends it after message_end. */
    private final List<Map<String, Object>> speech = java.util.Collections.synchronizedList(new ArrayList<>());

    public ChatWire(ChatUnderWay turn) {
        this.turn = turn;
        this.thoughts = new AgentThoughts(turn.messageId());
    }

    @Override
    public List<Map<String, Object>> of(RunEvent event) {
        if (event instanceof RunEvent.TextChunk chunk) {
            Map<String, Object> frame = head(AGENT_CHAT.equals(turn.mode()) ? "agent_message" : "message");
            frame.put("id", turn.messageId());
            frame.put("answer", chunk.text());
            frame.put("from_variable_selector", chunk.fromVariableSelector());
            return List.of(frame);
        }
        if (event instanceof RunEvent.ReasoningChunk chunk) {
            // Dify's chat frame of reasoning carries no workflow_run_id; its data names the message.
            Map<String, Object> frame = head("reasoning_chunk");
            frame.put("data", DifyWire.reasoningData(chunk, turn.messageId()));
            return List.of(frame);
        }
        if (event instanceof RunEvent.TtsMessage tts) {
            Map<String, Object> frame = head("tts_message");
            frame.put("audio", tts.audio());
            speech.add(frame);
            return List.of();
        }
        if (event instanceof RunEvent.TtsMessageEnd) {
            Map<String, Object> frame = head("tts_message_end");
            frame.put("audio", "");
            speech.add(frame);
            return List.of();
        }
        if (AGENT_CHAT.equals(turn.mode()) && event instanceof RunEvent.AgentLogged logged) {
            return thoughts.of(logged).map(thought -> {
                Map<String, Object> frame = head("agent_thought");
                frame.putAll(thought);
                return List.of(frame);
            }).orElse(List.of());
        }
        if (!ADVANCED_CHAT.equals(turn.mode())) {
            // A chatbot, agent or text generator has no graph to its clients: Dify's easy-UI pipeline sends the
            // message's events alone.
            return List.of();
        }
        Map<String, Object> workflow = DifyWire.event(event, turn.runId(), turn.taskId());
        Map<String, Object> frame = head((String) workflow.remove("event"));
        workflow.remove("task_id");
        frame.putAll(workflow);
        List<MessageFile> files = event instanceof RunEvent.NodeFinished node
                ? turn.answerFiles().of(node.execution().id()) : List.of();
        if (!files.isEmpty()) {
            List<Map<String, Object>> frames = new ArrayList<>();
            frames.add(frame);
            for (MessageFile file : files) {
                Map<String, Object> shown = head("message_file");
                shown.put("id", file.id());
                shown.put("type", file.type());
                shown.put("belongs_to", file.belongsTo());
                shown.put("url", file.url());
                frames.add(shown);
            }
            return frames;
        }
        return List.of(frame);
    }

    @Override
    public List<Map<String, Object>> end(ChatReply reply) {
        if (reply.run() == null) {
            // An annotation answered the turn: no run, so no pause and no failure.
            return List.of(messageEnd(reply));
        }
        if (reply.run().status() == RunStatus.PAUSED) {
            // workflow_paused, the run's own last event, ends the stream: the message ends when the run does.
            return List.of();
        }
        if (reply.run().status() == RunStatus.FAILED) {
            Map<String, Object> frame = head("error");
            frame.put("code", DifyErrors.code(failureKind(reply)));
            frame.put("status", DifyErrors.status(failureKind(reply)));
            frame.put("message", runFailed(reply.run()));
            return List.of(frame);
        }
        List<Map<String, Object>> frames = new ArrayList<>();
        frames.add(messageEnd(reply));
        frames.addAll(speech);
        return frames;
    }

    private Map<String, Object> messageEnd(ChatReply reply) {
        Map<String, Object> frame = head("message_end");
        frame.put("id", turn.messageId());
        frame.put("metadata", metadata(reply));
        List<Map<String, Object>> files = reply.message() == null ? List.of() : reply.message().files().stream()
                .filter(file -> "assistant".equals(file.belongsTo())).map(ChatWire::recordedFile).toList();
        frame.put("files", files.isEmpty() ? null : files);
        return frame;
    }

    @Override
    public Map<String, Object> failure(Throwable cause) {
        Map<String, Object> frame = head("error");
        frame.putAll(RunEventStream.errorOf(cause));
        return frame;
    }

    private Map<String, Object> head(String kind) {
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("event", kind);
        if (!COMPLETION.equals(turn.mode())) {
            frame.put("conversation_id", turn.conversationId());
        }
        frame.put("message_id", turn.messageId());
        frame.put("created_at", turn.createdAt());
        frame.put("task_id", turn.taskId());
        return frame;
    }

    /**
     * How a failed turn is refused: a model call's failure with Dify's code for one (400 completion_request_error);
     * any other failure as Dify raises a failed run, a ValueError (400 invalid_param).
     */
    public static ApiError failureKind(ChatReply reply) {
        return reply.failedAtModel() ? ApiError.COMPLETION_REQUEST_ERROR : ApiError.INVALID_PARAM;
    }

    /** Dify's blocking answer's message for a failed run, which it raises as a ValueError. */
    public static String runFailed(WorkflowRun run) {
        return "Run failed: " + (run.error() == null ? "" : run.error());
    }

    /** ChatbotAppBlockingResponse, the full converter's. */
    public static Map<String, Object> blocking(ChatUnderWay turn, ChatReply reply) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("event", "message");
        body.put("task_id", turn.taskId());
        body.put("id", turn.messageId());
        body.put("message_id", turn.messageId());
        if (!COMPLETION.equals(turn.mode())) {
            body.put("conversation_id", turn.conversationId());
        }
        body.put("mode", turn.mode());
        body.put("answer", reply.message() == null ? "" : reply.message().answer());
        body.put("metadata", metadata(reply));
        body.put("created_at", turn.createdAt());
        return body;
    }

    /**
     * Dify's AdvancedChatPausedBlockingResponse: the message so far, and the run's pause (the nodes it waits at,
     * a reason per form, its counts) beside it in {@code data}.
     */
    public static Map<String, Object> pausedBlocking(ChatUnderWay turn, ChatReply reply, List<KeptForm> waiting) {
        Map<String, Object> body = blocking(turn, reply);
        body.put("event", "workflow_paused");
        body.put("workflow_run_id", reply.run().id());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("id", turn.messageId());
        data.put("mode", body.get("mode"));
        data.put("conversation_id", turn.conversationId());
        data.put("message_id", turn.messageId());
        data.put("workflow_run_id", reply.run().id());
        data.put("answer", body.get("answer"));
        data.put("metadata", body.get("metadata"));
        data.put("created_at", turn.createdAt());
        List<HumanInputForm> forms = waiting.stream().map(KeptForm::form).toList();
        data.put("paused_nodes", forms.stream().map(HumanInputForm::nodeId).toList());
        data.put("reasons", forms.stream().map(HumanInputWire::reason).toList());
        data.put("status", reply.run().status().wireName());
        data.put("elapsed_time", reply.run().elapsedTime());
        data.put("total_tokens", reply.run().totalTokens());
        data.put("total_steps", reply.run().totalSteps());
        body.put("data", data);
        return body;
    }

    /**
     * The annotation that answered the turn (when one did), the knowledge the answer cited (when the app shows
     * it: its retriever_resource feature) and the usage.
     */
    private static Map<String, Object> metadata(ChatReply reply) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        if (reply.annotationReply() != null) {
            // Dify names the account that wrote the annotation; Hexaflow has no accounts: Dify's name for none.
            Map<String, Object> account = new LinkedHashMap<>();
            account.put("id", null);
            account.put("name", "Dify user");
            Map<String, Object> annotation = new LinkedHashMap<>();
            annotation.put("id", reply.annotationReply().annotationId());
            annotation.put("account", account);
            metadata.put("annotation_reply", annotation);
        }
        metadata.put("retriever_resources", reply.message() == null ? List.of()
                : reply.message().retrieverResources());
        metadata.put("usage", usage(reply.usage()));
        return metadata;
    }

    /** Dify's LLMUsage of a turn. */
    static Map<String, Object> usage(TurnUsage usage) {
        return new ModelUsage(usage.promptTokens(), usage.completionTokens(), usage.totalTokens(), usage.latency())
                .asDify();
    }

    /** SimpleConversation. */
    public static Map<String, Object> conversation(Conversation conversation) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", conversation.id());
        body.put("name", conversation.name());
        body.put("inputs", DifyWire.wire(conversation.inputs()));
        body.put("status", conversation.status().wireName());
        body.put("introduction", conversation.introduction());
        body.put("created_at", conversation.createdAt());
        body.put("updated_at", conversation.updatedAt());
        return body;
    }

    /** MessageListItem. */
    public static Map<String, Object> message(Message message, MessageFeedback feedback) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", message.id());
        body.put("conversation_id", message.conversationId());
        body.put("parent_message_id", message.parentMessageId());
        body.put("inputs", DifyWire.wire(message.inputs()));
        body.put("query", message.query());
        body.put("answer", message.answer());
        body.put("message_files", message.files().stream().map(ChatWire::file).toList());
        body.put("feedback", feedback == null ? null : Map.of("rating", feedback.rating().wireName()));
        body.put("retriever_resources", message.retrieverResources());
        body.put("created_at", message.createdAt());
        body.put("agent_thoughts", message.agentThoughts().stream()
                .map(thought -> AgentThoughts.listed(thought, message.id())).toList());
        body.put("status", message.status().wireName());
        body.put("error", message.error());
        return body;
    }

    private static Map<String, Object> file(MessageFile file) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", file.id());
        body.put("filename", file.filename());
        body.put("type", file.type());
        body.put("url", file.url());
        body.put("mime_type", file.mimeType());
        body.put("size", file.size());
        body.put("transfer_method", file.transferMethod());
        body.put("belongs_to", file.belongsTo());
        body.put("upload_file_id", file.uploadFileId());
        return body;
    }

    /** An answer's file as Dify's message_end lists it: the file's own mapping (File.to_dict). */
    private static Map<String, Object> recordedFile(MessageFile file) {
        int dot = file.filename().lastIndexOf('.');
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("dify_model_identity", "__dify__file__");
        body.put("id", file.id());
        body.put("tenant_id", null);
        body.put("type", file.type());
        body.put("transfer_method", file.transferMethod());
        body.put("remote_url", "remote_url".equals(file.transferMethod()) ? file.url() : null);
        body.put("related_id", file.uploadFileId());
        body.put("filename", file.filename());
        body.put("extension", dot < 0 ? null : file.filename().substring(dot));
        body.put("mime_type", file.mimeType());
        body.put("size", file.size());
        body.put("url", file.url());
        return body;
    }

    /** A feedback as Dify's app feedback list shows it. */
    public static Map<String, Object> feedback(MessageFeedback feedback) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", feedback.id());
        body.put("app_id", feedback.appId());
        body.put("conversation_id", feedback.conversationId());
        body.put("message_id", feedback.messageId());
        body.put("rating", feedback.rating().wireName());
        body.put("content", feedback.content());
        body.put("from_source", feedback.fromSource().wireName());
        body.put("from_end_user_id", feedback.endUserId());
        body.put("from_account_id", null);
        // MessageFeedback.to_dict(): the times as isoformat() strings, not the numbers a message has.
        body.put("created_at", PythonTimes.isoformat(feedback.createdAt()));
        body.put("updated_at", PythonTimes.isoformat(feedback.updatedAt()));
        return body;
    }

    /** A conversation variable; its value as Python's str() gives it, as Dify's fields.String does. */
    public static Map<String, Object> variable(KeptVariable kept) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", kept.id());
        body.put("name", kept.variable().name());
        body.put("value_type", kept.variable().valueType());
        Object value = kept.variable().value();
        body.put("value", value == null ? null : value instanceof String text ? text : Values.pythonRepr(value));
        body.put("description", kept.variable().description());
        body.put("created_at", kept.createdAt());
        body.put("updated_at", kept.updatedAt());
        return body;
    }
}
