package dev.hexaflow.adapters.http.serviceapi.chat;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.keyId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.starter;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.user;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.sse.RunEventStream;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.MultipartForms;
import dev.hexaflow.adapters.http.wire.ChatWire;
import dev.hexaflow.application.chat.port.in.AudioToTextUseCase.AudioToTextCommand;
import dev.hexaflow.application.chat.port.in.AudioToTextUseCase;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.SendChatMessageCommand;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase;
import dev.hexaflow.application.chat.port.in.StopChatMessageUseCase;
import dev.hexaflow.application.chat.port.in.TextToAudioUseCase.TextToAudioCommand;
import dev.hexaflow.application.chat.port.in.TextToAudioUseCase;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.domain.workflow.RunStatus;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.UploadedFile;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Dify's chat Service API for sending a message to a chatflow: blocking or streamed (written frame by frame from
 * the POST itself; the turn goes on and is kept whether or not the client stays), answered as a pause when its
 * run waits for a form, its stop, /meta, text-to-audio and audio-to-text.
 */
public final class ChatRoutes implements RouteGroup {

    private final JsonRequestBodies bodies;
    private final SendChatMessageUseCase send;
    private final StopChatMessageUseCase stop;
    private final TextToAudioUseCase speak;
    private final AudioToTextUseCase listen;
    private final Duration pingInterval;
    private final AnswerFormUseCase forms;

    /** @param forms the forms a paused turn waits on, which its blocking answer lists */
    public ChatRoutes(SendChatMessageUseCase send, StopChatMessageUseCase stop, TextToAudioUseCase speak,
            AudioToTextUseCase listen, Duration pingInterval, RequestLimits limits, AnswerFormUseCase forms) {
        this.forms = forms;
        this.bodies = new JsonRequestBodies(limits);
        this.send = send;
        this.stop = stop;
        this.speak = speak;
        this.listen = listen;
        this.pingInterval = pingInterval;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/v1/chat-messages", this::send, Access.RUN);
        routes.post("/v1/chat-messages/{task_id}/stop", this::stop, Access.STOP);
        routes.get("/v1/meta", ctx -> ServiceApiBodies.json(ctx, 200, new Meta(Map.of())), Access.DESCRIBE);
        routes.post("/v1/text-to-audio", this::speak, Access.CHAT);
        routes.post("/v1/audio-to-text", this::listen, Access.CHAT);
    }

    private void listen(Context ctx) {
        MultipartForms.Form form = MultipartForms.read(ctx,
                () -> new ApiException(ApiError.AUDIO_TOO_LARGE, "Audio size larger than 30 mb"));
        List<UploadedFile> parts = form.files();
        String user = form.user();
        UploadedFile part = parts.isEmpty() ? null : parts.get(0);
        try (InputStream content = part == null ? null : part.content()) {
            String text = listen.transcribe(new AudioToTextCommand(appId(ctx), user(ctx, user),
                    part == null ? null : part.filename(), part == null ? null : part.contentType(), content));
            ServiceApiBodies.json(ctx, 200, new Transcript(text));
        } catch (IOException e) {
            throw new ApiException(ApiError.INVALID_PARAM, "The audio file cannot be read");
        }
    }

    private void speak(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        byte[] audio = speak.speak(new TextToAudioCommand(appId(ctx), user(ctx, JsonRequestBodies.user(body)),
                textOrNull(body.get("message_id")), textOrNull(body.get("text")), textOrNull(body.get("voice"))));
        ctx.status(200).contentType("audio/mpeg").result(audio);
    }

    private static String textOrNull(Object value) {
        return value instanceof String text ? text : null;
    }

    private void send(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        SendChatMessageCommand command = command(appId(ctx), starter(ctx, JsonRequestBodies.user(body)), body)
                .withKeyId(keyId(ctx));
        if ("streaming".equals(body.get("response_mode"))) {
            RunEventStream.write(ctx, pingInterval, observer -> {
                ChatUnderWay turn = send.send(command, observer);
                return new RunEventStream.Started<>(turn.taskId(), turn.done(), new ChatWire(turn));
            });
            return;
        }
        ChatUnderWay turn = send.send(command, RunObserver.NONE);
        ChatReply reply = turn.await();
        // A turn an annotation answered has no run to fail or pause.
        RunStatus status = reply.run() == null ? RunStatus.SUCCEEDED : reply.run().status();
        if (status == RunStatus.FAILED) {
            throw new ApiException(ChatWire.failureKind(reply), ChatWire.runFailed(reply.run()));
        }
        ServiceApiBodies.json(ctx, 200, status == RunStatus.PAUSED
                ? ChatWire.pausedBlocking(turn, reply, forms.waitingOf(command.appId(), reply.run().id()))
                : ChatWire.blocking(turn, reply));
    }

    @SuppressWarnings("unchecked")
    private static SendChatMessageCommand command(String appId, String user, Map<String, Object> body) {
        Object inputs = body.get("inputs");
        if (inputs != null && !(inputs instanceof Map<?, ?>)) {
            throw new ApiException(ApiError.INVALID_PARAM, "inputs must be an object");
        }
        Object files = body.get("files");
        if (files != null && !(files instanceof List<?>)) {
            throw new ApiException(ApiError.INVALID_PARAM, "files must be a list");
        }
        Object query = body.get("query");
        if (query != null && !(query instanceof String)) {
            throw new ApiException(ApiError.INVALID_PARAM, "query must be a string");
        }
        Object conversation = body.get("conversation_id");
        if (conversation != null && !(conversation instanceof String)) {
            throw new ApiException(ApiError.INVALID_PARAM, "conversation_id must be a valid UUID");
        }
        Object workflowId = body.get("workflow_id");
        return new SendChatMessageCommand(appId, workflowId instanceof String id && !id.isBlank() ? id : null,
                user, (String) query, (Map<String, Object>) inputs,
                files == null ? List.of() : List.copyOf((List<?>) files), (String) conversation,
                !Boolean.FALSE.equals(body.get("auto_generate_name")));
    }

    private void stop(Context ctx) {
        stop.stop(appId(ctx), ctx.pathParam("task_id"),
                user(ctx, JsonRequestBodies.user(bodies.object(ctx))));
        ServiceApiBodies.json(ctx, 200, new Result("success"));
    }

    /** Dify's audio-to-text answer. */
    record Transcript(String text) {
    }

    /** Dify's answer to an action: {@code {"result": "success"}}. */
    record Result(String result) {
    }

    /** Dify's /meta: the icons of the tools the app uses, which Hexaflow does not serve. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Meta(Map<String, Object> toolIcons) {
    }
}
