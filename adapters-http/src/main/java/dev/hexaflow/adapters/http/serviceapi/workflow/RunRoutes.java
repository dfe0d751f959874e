package dev.hexaflow.adapters.http.serviceapi.workflow;

import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.appId;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.starter;
import static dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.user;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.hexaflow.adapters.http.server.RequestLimits;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication.Access;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiAuthentication;
import dev.hexaflow.adapters.http.serviceapi.ServiceApiBodies;
import dev.hexaflow.adapters.http.sse.RunEventStream;
import dev.hexaflow.adapters.http.support.JsonRequestBodies;
import dev.hexaflow.adapters.http.support.QueryNumbers;
import dev.hexaflow.adapters.http.wire.CompletionJson;
import dev.hexaflow.adapters.http.wire.DifyWire;
import dev.hexaflow.adapters.http.wire.HumanInputWire;
import dev.hexaflow.application.apps.port.in.AuthenticateUseCase.Operation;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.runs.port.in.AnswerFormUseCase;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase.FollowRunQuery;
import dev.hexaflow.application.runs.port.in.FollowRunUseCase;
import dev.hexaflow.application.runs.port.in.GetRunUseCase;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase.NodeExecutionPage;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase.NodeExecutionsQuery;
import dev.hexaflow.application.runs.port.in.ListNodeExecutionsUseCase;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.Retry;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.application.runs.port.in.StopTaskUseCase;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Runs under {@code /v1/workflows}: a run, blocking or streamed (written frame by frame from the POST itself; the
 * run goes on whether or not the client stays) or, as Hexaflow's extension, async (answered at once with its
 * ids), its detail, its node executions, its events (to resume a stream or follow a run), and stop. A run request
 * with an {@code Idempotency-Key} header answers the run an earlier request with the key and the same body
 * started, if one did: a blocking request its result, a streaming one its events from the first, an async one
 * the same ids. A run may name a {@code callback_url} (Hexaflow's extension, in every mode) that its final detail
 * is posted to when it ends.
 */
public final class RunRoutes implements RouteGroup {

    private final JsonRequestBodies bodies;
    private final RunWorkflowUseCase run;
    private final GetRunUseCase getRun;
    private final StopTaskUseCase stop;
    private final ListNodeExecutionsUseCase nodeExecutions;
    private final FollowRunUseCase follow;
    private final ServiceApiAuthentication authentication;
    private final Duration pingInterval;
    private final AnswerFormUseCase forms;

    /** @param authentication the Service API's bearer check, asked again for what only the body says */
    public RunRoutes(RunWorkflowUseCase run, GetRunUseCase getRun, StopTaskUseCase stop,
            ListNodeExecutionsUseCase nodeExecutions, FollowRunUseCase follow, ServiceApiAuthentication authentication,
            Duration pingInterval, RequestLimits limits, AnswerFormUseCase forms) {
        this.forms = forms;
        this.bodies = new JsonRequestBodies(limits);
        this.run = run;
        this.getRun = getRun;
        this.stop = stop;
        this.nodeExecutions = nodeExecutions;
        this.follow = follow;
        this.authentication = authentication;
        this.pingInterval = pingInterval;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.post("/v1/workflows/run", ctx -> run(ctx, null), Access.RUN);
        routes.post("/v1/workflows/{workflow_id}/run", ctx -> run(ctx, ctx.pathParam("workflow_id")), Access.RUN);
        routes.get("/v1/workflows/run/{workflow_run_id}", this::detail, Access.READ_RUNS);
        routes.post("/v1/workflows/tasks/{task_id}/stop", this::stop, Access.STOP);
        routes.get("/v1/workflows/run/{workflow_run_id}/node-executions", this::nodeExecutions, Access.READ_RUNS);
        routes.get("/v1/workflows/run/{workflow_run_id}/events", this::events, Access.READ_RUNS);
    }

    private void run(Context ctx, String workflowId) {
        Map<String, Object> body = bodies.object(ctx);
        Object inputs = body.get("inputs");
        if (!(inputs instanceof Map<?, ?>)) {
            throw new ApiException(ApiError.INVALID_PARAM, inputs == null
                    ? "Missing required parameter in the JSON body: inputs"
                    : "inputs must be an object");
        }
        Object files = body.get("files");
        if (files != null && !(files instanceof List<?>)) {
            throw new ApiException(ApiError.INVALID_PARAM, "files must be a list");
        }
        Object callbackUrl = body.get("callback_url");
        if (callbackUrl != null && !(callbackUrl instanceof String)) {
            throw new ApiException(ApiError.INVALID_PARAM, "callback_url must be an http or https URL");
        }
        if (callbackUrl != null) {
            authentication.require(ctx, Operation.NAME_CALLBACK);
        }
        @SuppressWarnings("unchecked")
        RunWorkflowCommand command = new RunWorkflowCommand(appId(ctx), workflowId,
                starter(ctx, JsonRequestBodies.user(body)),
                (Map<String, Object>) inputs, files == null ? List.of() : List.copyOf((List<?>) files))
                .withCallbackUrl((String) callbackUrl).withKeyId(ServiceApiAuthentication.keyId(ctx));
        String key = ctx.header(IDEMPOTENCY_KEY);
        if (key != null) {
            command = command.retriedWith(new Retry(key, fingerprint(ctx)));
        }
        RunWorkflowCommand asked = command;
        Object mode = body.get("response_mode");
        if ("streaming".equals(mode)) {
            RunEventStream.write(ctx, pingInterval, observer -> {
                RunUnderWay started = run.start(asked, observer);
                return started.repeated()
                        ? RunEventStream.Started.replay(follow.follow(new FollowRunQuery(asked.appId(),
                                started.runId(), 0)))
                        : RunEventStream.Started.workflow(started);
            });
        } else if ("async".equals(mode)) {
            // Hexaflow's extension: the answer waits for the run's start to be kept, so that its detail can be
            // asked for at once, and not for its end.
            authentication.require(ctx, Operation.RUN_ASYNC);
            CompletableFuture<Void> kept = new CompletableFuture<>();
            RunUnderWay started = run.start(command, event -> {
                if (event instanceof RunEvent.WorkflowStarted) {
                    kept.complete(null);
                }
            });
            if (!started.repeated()) {
                CompletableFuture.anyOf(kept, started.done().exceptionally(failure -> null)).join();
            }
            if (!kept.isDone() && !started.repeated()) {
                started.await(); // ended before its start was heard: answers the refusal, if it was one
            }
            ServiceApiBodies.json(ctx, 202, new Accepted(started.taskId(), started.runId()));
        } else {
            blocking(ctx, command);
        }
    }

    /** The run's end as its answer, or its pause with the forms it waits on. */
    private void blocking(Context ctx, RunWorkflowCommand command) {
        RunUnderWay started = run.startBlocking(command);
        WorkflowRun ended = started.await();
        if (ended.status() == RunStatus.PAUSED) {
            ServiceApiBodies.json(ctx, 200, HumanInputWire.pausedCompletion(ended, started.taskId(),
                    forms.waitingOf(command.appId(), ended.id())));
        } else {
            ServiceApiBodies.jsonBytes(ctx, 200, CompletionJson.of(ended, started.taskId()));
        }
    }

    /**
     * A run's detail as {@code GET /v1/workflows/run/{id}} answers it, byte for byte: the body of its completion
     * webhook.
     */
    public static byte[] detailJson(WorkflowRun run) {
        return DifyWire.json(RunDetail.of(run)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The header a client sends to make its retries answer one run (Stripe's, and the IETF draft's). */
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** What makes two requests with one key the same request: the path (the workflow asked) and the body. */
    private static String fingerprint(Context ctx) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(ctx.path().getBytes(StandardCharsets.UTF_8));
            digest.update((byte) '\n');
            return HexFormat.of().formatHex(digest.digest(ctx.bodyAsBytes()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /**
     * Hexaflow's extension: the run's events as its stream had them, each with its number as {@code id:}, from
     * after {@code Last-Event-ID} (or {@code ?after=}) or from the first, then live until the run ends.
     */
    private void events(Context ctx) {
        String header = ctx.header("Last-Event-ID");
        long after = header != null ? eventNumber("Last-Event-ID", header)
                : ctx.queryParam("after") != null ? eventNumber("after", ctx.queryParam("after")) : 0;
        String continueOnPause = ctx.queryParam("continue_on_pause");
        RunEventStream.replay(ctx, pingInterval, follow.follow(new FollowRunQuery(appId(ctx),
                ctx.pathParam("workflow_run_id"), after, "true".equalsIgnoreCase(continueOnPause), false, null)));
    }

    private static long eventNumber(String name, String text) {
        try {
            long number = Long.parseLong(text.strip());
            if (number >= 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // answered below, as a negative number is
        }
        throw new ApiException(ApiError.INVALID_PARAM, name + " must be the number of an event (0 or more), was '"
                + text + "'");
    }

    private void detail(Context ctx) {
        ServiceApiBodies.json(ctx, 200, RunDetail.of(getRun.get(appId(ctx), ctx.pathParam("workflow_run_id"))));
    }

    /** Hexaflow's extension: each node's execution of a run, as Dify's console shows it, paged. */
    private void nodeExecutions(Context ctx) {
        NodeExecutionPage page = nodeExecutions.list(new NodeExecutionsQuery(appId(ctx),
                ctx.pathParam("workflow_run_id"), QueryNumbers.number(ctx, "page", 1),
                QueryNumbers.number(ctx, "limit", 20)));
        ServiceApiBodies.json(ctx, 200, new NodeExecutionsBody(page.page(), page.limit(), page.total(),
                page.hasMore(), page.items().stream().map(DifyWire::nodeExecution).toList()));
    }

    private void stop(Context ctx) {
        stop.stop(appId(ctx), ctx.pathParam("task_id"),
                user(ctx, JsonRequestBodies.user(bodies.object(ctx))));
        ServiceApiBodies.json(ctx, 200, new Result("success"));
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record NodeExecutionsBody(int page, int limit, long total, boolean hasMore, List<Map<String, Object>> data) {
    }

    /** An async run's answer: what to poll ({@code GET /v1/workflows/run/{id}}) and what to stop. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Accepted(String taskId, String workflowRunId) {
    }

    /** Dify's answer to an action: {@code {"result": "success"}}. */
    record Result(String result) {
    }

    /** Dify's WorkflowRun detail. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record RunDetail(String id, String workflowId, String status, Object inputs, Map<String, Object> outputs,
            String error, int totalSteps, long totalTokens, long createdAt, Long finishedAt, Double elapsedTime) {

        static RunDetail of(WorkflowRun run) {
            return new RunDetail(run.id(), run.workflowId(), run.status().wireName(), Values.pythonJson(run.inputs()),
                    run.outputs() == null ? Map.of() : run.outputs(), run.error(), run.totalSteps(),
                    run.totalTokens(), run.createdAt(), run.finishedAt(),
                    run.finishedAt() == null ? null : run.elapsedTime());
        }
    }
}
