package dev.hexaflow.application.runs.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryEndUserRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryIdempotencyKeyRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryUploadRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryWorkflowVersionRepository;
import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.application.NoWebhooks;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.Retry;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunObserver;
import dev.hexaflow.application.runs.port.in.RunWorkflowUseCase.RunWorkflowCommand;
import dev.hexaflow.application.runs.port.out.IdempotencyKeyRepository;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.WorkflowVersion;
import dev.hexaflow.domain.secret.SecretHash;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request that loses the race for its idempotency key to another request with another body is refused as a
 * conflict, and gives its app's run slot back once: the app may then run exactly as many runs at once as before.
 * In the service's own package, to read the run slots it reserves.
 */
class LostKeyRaceTest {

    private static final String APP = "app-flow";

    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final InMemoryWorkflowVersionRepository versions = new InMemoryWorkflowVersionRepository();
    private final TaskRegistry tasks = new TaskRegistry();
    private final AtomicInteger ids = new AtomicInteger();
    private final ExecutorService listeners = Executors.newCachedThreadPool();
    private final RunWorkflowService service = new RunWorkflowService(apps, versions, new InMemoryEndUserRepository(),
            new InMemoryUploadRepository(), new InMemoryRunRepository(), dsl -> EchoWorkflow.named("Echo"),
            EchoWorkflow.engine(), tasks, 1, Clock.systemUTC(), () -> "id-" + ids.incrementAndGet(),
            StorageHealth.UNWATCHED, listeners, (event, runId, taskId) -> "", new RunFeeds(), new RivalFirst(),
            new NoWebhooks(), new HeldRecords(), RunMonitor.NONE);

    LostKeyRaceTest() {
        apps.add(new App(APP, "Echo", "", "workflow", "emoji", "🤖", "#FFF", List.of(), new SiteSettings("Echo",
                "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false), "sitecode1", true, 1));
        versions.add(new WorkflowVersion("ver-1", APP, "v1", "dsl", SecretHash.of("dsl"), 1));
    }

    @AfterEach
    void close() {
        listeners.shutdownNow();
    }

    @Test
    void theLoserIsRefusedAsAConflictAndGivesItsRunSlotBackOnce() {
        RunWorkflowCommand command = new RunWorkflowCommand(APP, null, "ada", Map.of("query", "hello"), List.of())
                .retriedWith(new Retry("key-1", "fp-mine"));

        assertThatThrownBy(() -> service.start(command, RunObserver.NONE)).isInstanceOfSatisfying(
                ApiException.class, e -> assertThat(e.error()).isEqualTo(ApiError.IDEMPOTENCY_KEY_CONFLICT));

        // One run at a time (the limit is 1): the slot is free again, and only one.
        assertThat(tasks.reserve(APP, 1)).as("the slot the loser held is free").isTrue();
        assertThat(tasks.reserve(APP, 1)).as("a second run beside it, over the limit").isFalse();
    }

    /** The in-memory claims, where another request's claim of the same key always lands just before this one's. */
    private static final class RivalFirst implements IdempotencyKeyRepository {
        private final InMemoryIdempotencyKeyRepository kept = new InMemoryIdempotencyKeyRepository();

        @Override
        public Optional<KeyedRun> claim(KeyedRun claim, long notBefore) {
            kept.claim(new KeyedRun(claim.appId(), claim.user(), claim.key(), "fp-rival", "run-rival",
                    "task-rival", claim.createdAt()), notBefore);
            return kept.claim(claim, notBefore);
        }

        @Override
        public Optional<KeyedRun> find(String appId, String user, String key, long notBefore) {
            return kept.find(appId, user, key, notBefore);
        }

        @Override
        public boolean release(KeyedRun claim) {
            return kept.release(claim);
        }

        @Override
        public int prune(long createdBefore) {
            return kept.prune(createdBefore);
        }
    }

}
