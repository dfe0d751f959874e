package dev.hexaflow.application.mcpserver.service;

import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.apps.port.out.WorkflowVersionRepository;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatReply;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.SendChatMessageCommand;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase;
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase.CompletionCommand;
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.mcpserver.port.in.ServeMcpServerUseCase;
import dev.hexaflow.application.mcpserver.port.out.AppMcpServerRepository;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import dev.hexaflow.domain.mcpserver.McpToolSchema;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An app's MCP server, as Dify's {@code handle_mcp_request} serves it: the one tool named for the app, its input
 * schema from the start form; a call runs the app for the server's end user (named by the server's id, as Dify's
 * {@code mcp} end user is by its session) and answers the workflow's outputs as JSON text or the chat's answer. The
 * arguments are the run's inputs, checked against the form as any run's are; a chatbot, an agent or a chatflow
 * takes a {@code query} besides, a text generator its inputs alone (Dify's {@code invoke_app}). The caller waits at most
 * {@link #wait}; a run that goes on past it is kept and ends as it would have.
 */
public final class ServeMcpServerService implements ServeMcpServerUseCase {

    private final AppMcpServerRepository servers;
    private final AppRepository apps;
    private final WorkflowVersionRepository versions;
    private final DescribeAppUseCase describe;
    private final RunWorkflowUseCase runs;
    private final SendChatMessageUseCase chats;
    private final SendCompletionMessageUseCase completions;
    private final Duration wait;

    /** @param wait the longest a call waits for its run's end */
    public ServeMcpServerService(AppMcpServerRepository servers, AppRepository apps, WorkflowVersionRepository versions,
            DescribeAppUseCase describe, RunWorkflowUseCase runs, SendChatMessageUseCase chats,
            SendCompletionMessageUseCase completions, Duration wait) {
        this.servers = servers;
        this.apps = apps;
        this.versions = versions;
        this.describe = describe;
        this.runs = runs;
        this.chats = chats;
        this.completions = completions;
        this.wait = wait;
    }

    @Override
    public McpAppTool open(String code) {
        AppMcpServer server = server(code);
        App app = apps.find(server.appId()).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "App Not Found"));
        String version = versions.latest(app.id()).map(found -> found.id()).orElseThrow(() -> new ApiException(
                ApiError.APP_UNAVAILABLE, "App is unavailable"));
        DescribeAppUseCase.AppParameters form = describe.parameters(app.id());
        Map<String, Object> schema = McpToolSchema.of(isChat(app), form.inputForm(), server.parameters());
        return new McpAppTool(server.id(), app.id(), app.name(), server.description(), schema,
                server.id() + "/" + server.updatedAt() + "/" + version);
    }

    @Override
    public McpToolAnswer call(String code, Map<String, Object> arguments) {
        AppMcpServer server = server(code);
        App app = apps.find(server.appId()).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "App Not Found"));
        Map<String, Object> inputs = new LinkedHashMap<>(arguments == null ? Map.of() : arguments);
        if (AppInfo.COMPLETION_MODE.equals(app.mode())) {
            return answered(completions.complete(new CompletionCommand(app.id(), server.id(), "", inputs, List.of()),
                    RunObserver.NONE));
        }
        if (!isChat(app)) {
            RunUnderWay run = runs.start(new RunWorkflowCommand(app.id(), null, server.id(), inputs, List.of()),
                    RunObserver.NONE);
            WorkflowRun ended = awaited(run.done(), run.runId());
            return ended == null ? pastWait(run.runId()) : answer(ended, Values.pythonJson(ended.outputs() == null
                    ? Map.of() : ended.outputs()));
        }
        Object query = inputs.remove(McpToolSchema.QUERY);
        if (!(query instanceof String text) || text.isBlank()) {
            throw new ApiException(ApiError.INVALID_PARAM, "query is required and must be a text");
        }
        return answered(chats.send(new SendChatMessageCommand(app.id(), null, server.id(), text, inputs,
                List.of(), "", false), RunObserver.NONE));
    }

    /** A message's answer; one an annotation answered had no run, and cannot have failed. */
    private McpToolAnswer answered(ChatUnderWay turn) {
        ChatReply reply = awaited(turn.done(), turn.runId());
        if (reply == null) {
            return pastWait(turn.runId());
        }
        return reply.run() == null ? new McpToolAnswer(reply.message().answer(), false, null)
                : answer(reply.run(), reply.message().answer());
    }

    private AppMcpServer server(String code) {
        return (AppMcpServer.isCode(code) ? servers.findByCode(code) : java.util.Optional.<AppMcpServer>empty())
                .filter(AppMcpServer::enabled)
                .orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "Server Not Found"));
    }

    /** An app whose tool takes a query: one Dify's /chat-messages serves. */
    private static boolean isChat(App app) {
        return AppInfo.CONVERSATION_MODES.contains(app.mode());
    }

    /** A run that failed or stopped answers its error; one that ended well, its text. */
    private static McpToolAnswer answer(WorkflowRun run, String text) {
        if (run.status() == RunStatus.FAILED || run.status() == RunStatus.STOPPED) {
            String error = run.error() == null || run.error().isBlank() ? "The run " + run.id() + " ended "
                    + run.status().wireName() : run.error();
            return new McpToolAnswer(error, true, run.id());
        }
        return new McpToolAnswer(text == null ? "" : text, false, run.id());
    }

    private McpToolAnswer pastWait(String runId) {
        return new McpToolAnswer("The run " + runId + " goes on past " + wait.toSeconds() + " s, the longest an MCP "
                + "call waits; it is kept, and its end will be in the app's logs.", true, runId);
    }

    /** The end, or null when it comes after the wait. */
    private <T> T awaited(CompletableFuture<T> done, String runId) {
        try {
            return done.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ApiException refused) {
                throw refused;
            }
            throw new IllegalStateException("run " + runId + " broke: " + e.getCause(), e.getCause());
        }
    }
}
