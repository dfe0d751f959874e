package dev.hexaflow.application.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.NoWebhooks;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.Retry;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunUnderWay;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.application.runs.port.out.RunRepository.LogQuery;
import dev.hexaflow.application.runs.service.HeldRecords;
import dev.hexaflow.application.runs.service.RunFeeds;
import dev.hexaflow.application.runs.service.RunWorkflowService;
import dev.hexaflow.application.runs.service.TaskRegistry;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs asked again with an idempotency key, on the in-memory repositories and the real engine running a workflow
 * of a start and an end node: the same key and body answer the run the key started, another body is refused, and
 * a key is an end user's own for a day.
 */
class IdempotentRunTest {

    private static final String APP = "app-flow";

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    private final InMemoryRunRepository runs = new InMemoryRunRepository();
    private final InMemoryIdempotencyKeyRepository keys = new InMemoryIdempotencyKeyRepository();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger ids = new AtomicInteger();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final RunWorkflowService service = new RunWorkflowService(apps, versions, new InMemoryEndUserRepository(),
            new InMemoryUploadRepository(), runs, dsl -> EchoWorkflow.named("Echo"), EchoWorkflow.engine(),
            new TaskRegistry(), 10, clock, () -> "id-" + ids.incrementAndGet(), StorageHealth.UNWATCHED, listeners,
            (event, runId, taskId) -> event.getClass().getSimpleName(), new RunFeeds(), keys, new NoWebhooks(),
            new HeldRecords(), RunMonitor.NONE);

    IdempotentRunTest() {
        apps.add(new App(APP, "Echo", "", "workflow", "emoji", "🤖", "#FFF", List.of(), new SiteSettings("Echo",
                "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false), "sitecode1", true, 1));
        versions.add(new WorkflowVersion("ver-1", APP, "v1", "dsl", SecretHash.of("dsl"), 1));
    }

    @AfterEach
    void close() {
        listeners.shutdownNow();
    }

    private RunUnderWay start(String user, String query, Retry retry) {
        RunWorkflowCommand command = new RunWorkflowCommand(APP, null, user, Map.of("query", query), List.of());
        return service.start(retry == null ? command : command.retriedWith(retry), RunObserver.NONE);
    }

    private long runsKept() {
        return runs.logs(new LogQuery(APP, null, null, 1, 100, null, null, null)).total();
    }

    @Test
    void theSameKeyAndBodyAnswerTheRunTheKeyStartedAndStartNoOther() {
        RunUnderWay first = start("ada", "hello", new Retry("key-1", "fp-a"));
        WorkflowRun ended = first.await();

        RunUnderWay again = start("ada", "hello", new Retry("key-1", "fp-a"));

        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ended.outputs()).isEqualTo(Map.of("answer", "hello"));
        assertThat(first.repeated()).isFalse();
        assertThat(again.repeated()).isTrue();
        assertThat(again.runId()).isEqualTo(first.runId());
        assertThat(again.taskId()).isEqualTo(first.taskId());
        assertThat(again.await().outputs()).isEqualTo(Map.of("answer", "hello"));
        assertThat(runsKept()).isEqualTo(1);
    }

    @Test
    void anotherBodyWithTheSameKeyIsRefusedAsAConflictAndStartsNothing() {
        start("ada", "hello", new Retry("key-1", "fp-a")).await();

        assertThatThrownBy(() -> start("ada", "goodbye", new Retry("key-1", "fp-b")))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.error()).isEqualTo(ApiError.IDEMPOTENCY_KEY_CONFLICT);
                    assertThat(e.getMessage()).isEqualTo("Idempotency-Key key-1 was used with another request; a "
                            + "retry must send the same body.");
                });
        assertThat(runsKept()).isEqualTo(1);
    }

    @Test
    void aKeyIsItsEndUsersOwnAndRequestsWithoutOneAreNeverRepeated() {
        RunUnderWay ada = start("ada", "hello", new Retry("key-1", "fp-a"));
        ada.await();
        RunUnderWay bob = start("bob", "hello", new Retry("key-1", "fp-a"));
        bob.await();
        start("ada", "hello", null).await();
        start("ada", "hello", null).await();

        assertThat(bob.repeated()).isFalse();
        assertThat(bob.runId()).isNotEqualTo(ada.runId());
        assertThat(runsKept()).isEqualTo(4);
    }

    @Test
    void aKeyAnswersItsRunForADayAndThenStartsANewOne() {
        RunUnderWay first = start("ada", "hello", new Retry("key-1", "fp-a"));
        first.await();
        clock.advance(RunWorkflowService.KEY_WINDOW.minusMinutes(1));
        RunUnderWay withinTheDay = start("ada", "hello", new Retry("key-1", "fp-a"));
        clock.advance(Duration.ofMinutes(2));
        RunUnderWay nextDay = start("ada", "hello", new Retry("key-1", "fp-a"));
        nextDay.await();

        assertThat(withinTheDay.repeated()).isTrue();
        assertThat(withinTheDay.runId()).isEqualTo(first.runId());
        assertThat(nextDay.repeated()).isFalse();
        assertThat(nextDay.runId()).isNotEqualTo(first.runId());
        assertThat(runsKept()).isEqualTo(2);
    }

    @Test
    void aBlankOrOverlongKeyIsRefusedAsAnInvalidParameter() {
        assertThatThrownBy(() -> new Retry(" ", "fp-a")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.error()).isEqualTo(ApiError.INVALID_PARAM));
        assertThatThrownBy(() -> new Retry("k".repeat(Retry.MAX_KEY_LENGTH + 1), "fp-a"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("Idempotency-Key must be at most 255 characters."));
        assertThat(runsKept()).isZero();
    }

}
