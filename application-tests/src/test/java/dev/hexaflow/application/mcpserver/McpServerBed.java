package dev.hexaflow.application.mcpserver;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppMcpServerRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.apps.port.in.DescribeAppUseCase;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase.ChatUnderWay;
import dev.hexaflow.application.chat.port.in.SendChatMessageUseCase;
import dev.hexaflow.application.chat.port.in.SendCompletionMessageUseCase;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.mcpserver.service.ManageMcpServerService;
import dev.hexaflow.application.mcpserver.service.ServeMcpServerService;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.UploadLimits;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InputField;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The MCP server context in memory: apps and versions added to the in-memory stores, the in-memory server store, a
 * start form per app ({@link #forms}), and a run use case that keeps each command ({@link #started}) and answers
 * the run {@link #ends} says (or a run that never ends, when it says null). The chat use case refuses: the tests
 * here reach it only with arguments it must never see.
 */
final class McpServerBed {

    final MovableClock clock = new MovableClock(Instant.parse("2026-03-02T08:00:00Z"));
    final InMemoryAppRepository apps = new InMemoryAppRepository();
    final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    final InMemoryAppMcpServerRepository servers = new InMemoryAppMcpServerRepository();
    final Map<String, List<InputField>> forms = new java.util.HashMap<>();
    final List<RunWorkflowCommand> started = Collections.synchronizedList(new ArrayList<>());
    /** How each run ends; null: it never does. */
    volatile WorkflowRun ends;

    private final AtomicInteger drawn = new AtomicInteger();
    final SecretGenerator secrets = length -> String.format("%0" + length + "d", drawn.incrementAndGet());
    private final RunWorkflowUseCase runs = (command, observer) -> {
        started.add(command);
        WorkflowRun end = ends;
        return new RunUnderWay("run-" + started.size(), "task", end == null ? new CompletableFuture<>()
                : CompletableFuture.completedFuture(end));
    };
    private final SendChatMessageUseCase chats = (command, observer) -> {
        throw new AssertionError("no chat turn was expected: " + command);
    };
    private final SendCompletionMessageUseCase completions = new SendCompletionMessageUseCase() {
        @Override
        public ChatUnderWay complete(CompletionCommand command, RunObserver observer) {
            throw new AssertionError("no text generator's message was expected: " + command);
        }

        @Override
        public void stop(String appId, String taskId, String user) {
            throw new AssertionError("no stop was expected");
        }
    };
    private final DescribeAppUseCase describe = new DescribeAppUseCase() {
        @Override
        public App app(String appId) {
            return apps.find(appId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND, "App not found."));
        }

        @Override
        public AppParameters parameters(String appId) {
            return new AppParameters(DataTree.of(Map.of()), forms.getOrDefault(appId, List.of()),
                    UploadLimits.DIFY);
        }
    };

    ManageMcpServerService manage() {
        return new ManageMcpServerService(apps, servers, secrets, clock);
    }

    ServeMcpServerService serve(Duration wait) {
        return new ServeMcpServerService(servers, apps, versions, describe, runs, chats, completions, wait);
    }

    /** Adds an app of this mode, published when {@code published}; answers its id. */
    String app(String id, String name, String mode, boolean published) {
        apps.add(new App(id, name, "What " + name + " does", mode, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings(name, "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false), "site" + id,
                true, 1));
        if (published) {
            versions.add(new WorkflowVersion("v-" + id, id, "1", "dsl", SecretHash.of("dsl"), 1));
        }
        return id;
    }

    static InputField field(String variable, String type, boolean required, List<String> options) {
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("variable", variable);
        data.put("type", type);
        data.put("required", required);
        data.put("options", options);
        return InputField.of(DataTree.of(data));
    }
}
