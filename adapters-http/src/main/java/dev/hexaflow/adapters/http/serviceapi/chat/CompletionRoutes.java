package dev.hexaflow.adapters.http.serviceapi.chat;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.keyId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.starter;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.user;

import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.sse.RunEventStream;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.wire.ChatWire;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase.CompletionCommand;
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.domain.workflow.RunStatus;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Dify's completion Service API (a text generator's): a message, blocking or streamed as {@code message} events
 * and {@code message_end}, and its stop. A key of an app of another mode is answered app_unavailable, as Dify's
 * CompletionApi answers it.
 */
public final class CompletionRoutes implements RouteGroup {

    private final JsonRequestBodies bodies;
    private final SendCompletionMessageUseCase complete;
    private final Duration pingInterval;

    public CompletionRoutes(SendCompletionMessageUseCase complete, Duration pingInterval, RequestLimits limits) {
        this.bodies = new JsonRequestBodies(limits);
        this.complete = complete;
        this.pingInterval = pingInterval;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/v1/completion-messages", this::send, Access.RUN);
        routes.post("/v1/completion-messages/{task_id}/stop", this::stop, Access.STOP);
    }

    private void send(Context ctx) {
        Map<String, Object> body = bodies.object(ctx);
        CompletionCommand command = command(appId(ctx), starter(ctx, JsonRequestBodies.user(body)), body)
                .withKeyId(keyId(ctx));
        if ("streaming".equals(body.get("response_mode"))) {
            RunEventStream.write(ctx, pingInterval, observer -> {
                ChatUnderWay message = complete.complete(command, observer);
                return new RunEventStream.Started<>(message.taskId(), message.done(), new ChatWire(message));
            });
            return;
        }
        ChatUnderWay message = complete.complete(command, RunObserver.NONE);
        ChatReply reply = message.await();
        if (reply.run().status() == RunStatus.FAILED) {
            throw new ApiException(ChatWire.failureKind(reply), ChatWire.runFailed(reply.run()));
        }
        ServiceApiBodies.json(ctx, 200, ChatWire.blocking(message, reply));
    }

    @SuppressWarnings("unchecked")
    private static CompletionCommand command(String appId, String user, Map<String, Object> body) {
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
        return new CompletionCommand(appId, user, (String) query, (Map<String, Object>) inputs,
                files == null ? List.of() : List.copyOf((List<?>) files));
    }

    private void stop(Context ctx) {
        complete.stop(appId(ctx), ctx.pathParam("task_id"), user(ctx, JsonRequestBodies.user(bodies.object(ctx))));
        ServiceApiBodies.json(ctx, 200, new ChatRoutes.Result("success"));
    }
}
