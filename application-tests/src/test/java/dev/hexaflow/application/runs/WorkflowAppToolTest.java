package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryInstanceSignals;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunRepository.LogEntry;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.service.AnswerFormService;
import dev.hexaflow.application.runs.service.GetRunService;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.StopTaskService;
import dev.hexaflow.application.tools.service.WorkflowAppToolRunner;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An app run as another workflow's tool, through the bed's real run service: each tool names the app it is bound
 * to by a lambda, as the registry's bindings would. App {@link #GATED_APP} publishes the bed's gated workflow, so
 * that its child run stays in flight until the test stops it.
 */
class WorkflowAppToolTest {

    private static final String GATED_APP = "app-gated";
    private static final ToolRef ECHO = new ToolRef(ToolProviderType.WORKFLOW, "flows", "echo");
    private static final ToolRef WAIT = new ToolRef(ToolProviderType.WORKFLOW, "flows", "wait");
    private static final ToolRef CHAT = new ToolRef(ToolProviderType.WORKFLOW, "flows", "chat");
    private static final ToolRef GONE = new ToolRef(ToolProviderType.WORKFLOW, "flows", "gone");

    private final RunBed bed = new RunBed();
    private final StopTaskService stops = new StopTaskService(bed.tasks, InMemoryInstanceSignals.ALONE);
    private final Map<ToolRef, String> bound = Map.of(ECHO, RunBed.APP, WAIT, GATED_APP, CHAT, RunBed.CHAT_APP,
            GONE, "app-gone");

    WorkflowAppToolTest() {
        bed.apps.add(new App(GATED_APP, "Gated", "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Title", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "codegated1", true, 1));
        bed.versions.add(new WorkflowVersion("ver-g", GATED_APP, "v1", "gated", SecretHash.of("gated"), 1));
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private WorkflowAppToolRunner runner(RunWorkflowService service) {
        return new WorkflowAppToolRunner(ref -> Optional.ofNullable(bound.get(ref)).map(ToolBinding.App::new),
                () -> service, () -> stops, () -> new GetRunService(bed.runs),
                () -> new AnswerFormService(bed.runs.pauses(), new InMemoryUploadRepository(), bed.resumptions(),
                        bed.clock));
    }

    /** The runs of the app its logs list, newest first. */
    private List<WorkflowRun> runsOf(String appId) {
        return bed.runs.logs(new LogQuery(appId, null, null, 1, 100, null, null, null)).items().stream()
                .map(LogEntry::run).toList();
    }

    @Test
    void theBoundAppRunsAsARunOfItsOwnWithTheArgumentsAsInputsAndItsOutputsAsTextAndJson() {
        List<ToolMessage> messages = runner(bed.service(0)).run(ECHO, Map.of("query", "hello"), StopSignal.NEVER);

        assertThat(messages).containsExactly(new ToolMessage.Text("{\"answer\": \"hello\"}"),
                new ToolMessage.Json(Map.of("answer", "hello")));
        List<WorkflowRun> kept = runsOf(RunBed.APP);
        assertThat(kept).hasSize(1);
        assertThat(kept.get(0).inputs()).containsEntry("query", "hello");
        assertThat(kept.get(0).status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aCallOutsideAnyRunIsTheWorkflowToolsOwnUser() {
        runner(bed.service(0)).run(ECHO, Map.of("query", "q"), StopSignal.NEVER);

        assertThat(bed.endUsers.find(RunBed.APP, "hexaflow-workflow-tool")).isPresent();
    }

    @Test
    void eachCallIsARunOfItsOwn() {
        WorkflowAppToolRunner runner = runner(bed.service(0));

        runner.run(ECHO, Map.of("query", "one"), StopSignal.NEVER);
        runner.run(ECHO, Map.of("query", "two"), StopSignal.NEVER);

        assertThat(runsOf(RunBed.APP)).extracting(run -> run.inputs().get("query"))
                .containsExactlyInAnyOrder("one", "two");
    }

    @Test
    void onlyABoundToolIsRunAndItsDescriptionNamesTheApp() {
        WorkflowAppToolRunner runner = runner(bed.service(0));
        ToolRef unbound = new ToolRef(ToolProviderType.WORKFLOW, "flows", "nothing");

        assertThat(runner.runs(ECHO)).isTrue();
        assertThat(runner.runs(unbound)).isFalse();
        assertThat(runner.describe(ECHO).orElseThrow().description()).contains(RunBed.APP);
        assertThat(runner.describe(unbound)).isEmpty();
        assertThatThrownBy(() -> runner.run(unbound, Map.of(), StopSignal.NEVER)).isInstanceOf(ToolException.class)
                .hasMessageContaining("flows/nothing is not bound to an app");
    }

    @Test
    void anAppTheRunServiceRefusesFailsTheToolNamingTheAppAndKeepsNoRun() {
        WorkflowAppToolRunner runner = runner(bed.service(0));

        assertThatThrownBy(() -> runner.run(GONE, Map.of(), StopSignal.NEVER)).isInstanceOf(ToolException.class)
                .hasMessageContaining("the app app-gone bound to flows/gone cannot run");
        assertThatThrownBy(() -> runner.run(CHAT, Map.of(), StopSignal.NEVER)).isInstanceOf(ToolException.class)
                .hasMessageContaining("the app " + RunBed.CHAT_APP);
        assertThat(runsOf(RunBed.CHAT_APP)).isEmpty();
    }

    @Test
    void anAppAtItsBoundOfRunsInFlightRefusesTheToolsRun() throws InterruptedException {
        RunWorkflowService service = bed.service(1);
        RunUnderWay busy = service.start(new RunWorkflowCommand(GATED_APP, null, "ada", Map.of(), List.of()),
                RunObserver.NONE);
        bed.awaitWaiting(1);

        assertThatThrownBy(() -> runner(service).run(WAIT, Map.of(), StopSignal.NEVER))
                .isInstanceOf(ToolException.class).hasMessageContaining("cannot run");
        bed.gate.countDown();
        assertThat(busy.await().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void stoppingTheCallerStopsTheChildRunAndFailsTheTool() throws Exception {
        Stop stop = new Stop();
        WorkflowAppToolRunner runner = runner(bed.service(0));
        CompletableFuture<List<ToolMessage>> call = CompletableFuture.supplyAsync(() -> runner.run(WAIT, Map.of(),
                stop));
        bed.awaitWaiting(1);

        stop.stop();

        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ToolException.class);
        assertThat(runsOf(GATED_APP)).singleElement().extracting(WorkflowRun::status).isEqualTo(RunStatus.STOPPED);
    }

    @Test
    void aChildRunThatEndsWhileTheCallerWaitsAnswersItsOutputs() throws Exception {
        WorkflowAppToolRunner runner = runner(bed.service(0));
        CompletableFuture<List<ToolMessage>> call = CompletableFuture.supplyAsync(() -> runner.run(WAIT, Map.of(),
                StopSignal.NEVER));
        bed.awaitWaiting(1);

        bed.gate.countDown();

        assertThat(call.get(10, TimeUnit.SECONDS)).contains(new ToolMessage.Json(Map.of("answer", "done")));
    }

    /** A caller's stop signal that the test sets off. */
    private static final class Stop implements StopSignal {
        private final List<Runnable> actions = new ArrayList<>();
        private volatile boolean stopped;

        synchronized void stop() {
            stopped = true;
            actions.forEach(Runnable::run);
        }

        @Override
        public boolean isStopped() {
            return stopped;
        }

        @Override
        public synchronized AutoCloseable onStop(Runnable action) {
            actions.add(action);
            return () -> {
                synchronized (this) {
                    actions.remove(action);
                }
            };
        }
    }
}
