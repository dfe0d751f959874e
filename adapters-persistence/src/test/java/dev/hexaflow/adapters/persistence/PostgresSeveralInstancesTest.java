package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiInstanceLeases;
import dev.hexaflow.adapters.persistence.jdbi.JdbiRunRepository;
import dev.hexaflow.adapters.persistence.jdbi.WriteGate;
import dev.hexaflow.application.instances.port.out.InstanceLeases.Served;
import dev.hexaflow.application.runs.port.out.RunRepository.StartedRun;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.Claim;
import dev.hexaflow.application.webhooks.port.out.DeliveryRepository.PassOver;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances on one PostgreSQL database, each with a pool of its own as two processes would have: a campus
 * key's uses counted on both at once are each numbered once and add up exactly, a ban made on one is seen by the
 * other at once, and due webhook deliveries claimed from both at once are each claimed once; what one instance
 * tells through LISTEN/NOTIFY the other hears, again after its connection was cut; the runs of an instance whose
 * lease ran out are failed once, and a live instance's are not.
 */
class PostgresSeveralInstancesTest {

    private final PostgresCluster cluster = PostgresCluster.get();
    private final String name = cluster.createDatabase();
    private final PostgresDatabase first = PostgresDatabase.open(cluster.url(name), PostgresCluster.USER,
            PostgresCluster.PASSWORD);
    private final PostgresDatabase second = PostgresDatabase.open(cluster.url(name), PostgresCluster.USER,
            PostgresCluster.PASSWORD);
    private final JdbiCampusKeyRepository firstKeys = new JdbiCampusKeyRepository(first.jdbi());
    private final JdbiCampusKeyRepository secondKeys = new JdbiCampusKeyRepository(second.jdbi());
    private final SecretHash hash = SecretHash.of("shared-key");

    @AfterEach
    void close() {
        firstKeys.close();
        secondKeys.close();
        first.close();
        second.close();
        cluster.dropDatabase(name);
    }

    @Test
    void usesRecordedOnTwoInstancesAtOnceAreEachNumberedOnceAndAddUpExactly() throws Exception {
        firstKeys.add(CampusKey.issued(hash));
        int threads = 4;
        int usesEach = 250;

        List<Long> answered = onThreads(threads, thread -> {
            JdbiCampusKeyRepository keys = thread % 2 == 0 ? firstKeys : secondKeys;
            List<Long> counts = new ArrayList<>();
            for (int i = 0; i < usesEach; i++) {
                counts.add(keys.recordUse(hash));
            }
            return counts;
        });

        long total = (long) threads * usesEach;
        assertThat(answered).as("every count answered once, none skipped")
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, total).boxed().toList());
        assertThat(firstKeys.find(hash).orElseThrow().requests()).isEqualTo(total);
        assertThat(secondKeys.find(hash).orElseThrow().requests()).isEqualTo(total);
    }

    @Test
    void aKeyBannedOnOneInstanceIsFoundBannedByTheOtherAtOnce() {
        firstKeys.add(CampusKey.issued(hash));
        assertThat(secondKeys.find(hash)).as("read once before the ban").contains(new CampusKey(hash, 0, false));
        secondKeys.recordUse(hash);

        assertThat(firstKeys.ban(hash)).isTrue();

        assertThat(secondKeys.find(hash)).contains(new CampusKey(hash, 1, true));
        assertThat(firstKeys.find(hash)).contains(new CampusKey(hash, 1, true));
    }

    @Test
    void dueDeliveriesClaimedFromTwoInstancesAtOnceAreEachClaimedOnce() throws Exception {
        new JdbiAppRepository(first.jdbi()).add(app(APP, "code1", 10));
        JdbiDeliveryRepository firstDeliveries = new JdbiDeliveryRepository(first.jdbi());
        JdbiDeliveryRepository secondDeliveries = new JdbiDeliveryRepository(second.jdbi());
        int due = 200;
        for (int i = 0; i < due; i++) {
            Delivery delivery = Delivery.awaiting("d" + i, APP, "run-" + i,
                    new CallbackUrl("https://hooks.example.com/run"), 1000 + i);
            firstDeliveries.add(delivery);
            assertThat(firstDeliveries.move(delivery.due(1000 + i), DeliveryState.AWAITING_RUN, null)).isTrue();
        }

        List<String> claimed = onThreads(6, thread -> {
            JdbiDeliveryRepository deliveries = thread % 2 == 0 ? firstDeliveries : secondDeliveries;
            List<String> mine = new ArrayList<>();
            Optional<Claim> claim;
            while ((claim = deliveries.claimNext(5000, 60_000, PassOver.NONE)).isPresent()) {
                assertThat(claim.get().until()).isEqualTo(60_000);
                mine.add(claim.get().delivery().id());
            }
            return mine;
        });

        assertThat(claimed).hasSize(due).doesNotHaveDuplicates();
        assertThat(firstDeliveries.claimNext(5000, 60_000, PassOver.NONE)).isEmpty();
        assertThat(secondDeliveries.claimNext(5000, 60_000, PassOver.NONE)).isEmpty();
    }

    /** Runs {@code work} on that many threads, started together, and answers what they gave, in one list. */
    private static <T> List<T> onThreads(int threads, ThreadWork<T> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<T>>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int thread = i;
                Callable<List<T>> task = () -> {
                    go.await();
                    return work.run(thread);
                };
                results.add(pool.submit(task));
            }
            go.countDown();
            List<T> all = new ArrayList<>();
            for (Future<List<T>> result : results) {
                all.addAll(result.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface ThreadWork<T> {
        List<T> run(int thread) throws Exception;
    }

    @Test
    void aSignalToldByOneInstanceIsHeardByTheOthersInOrderAndNotByItself() throws Exception {
        try (PostgresInstanceSignals one = signals(first, "one"); PostgresInstanceSignals two = signals(second, "two")) {
            List<String> heardByOne = new CopyOnWriteArrayList<>();
            List<String> heardByTwo = new CopyOnWriteArrayList<>();
            one.hear("topic", heardByOne::add);
            two.hear("topic", heardByTwo::add);
            two.hear("other", message -> heardByTwo.add("other:" + message));

            for (int i = 0; i < 50; i++) {
                one.tell("topic", "m" + i + " with spaces\nand a newline");
            }
            one.tell("other", "x");

            assertThat(within(5_000, () -> heardByTwo.size() == 51)).as(heardByTwo.toString()).isTrue();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                expected.add("m" + i + " with spaces\nand a newline");
            }
            expected.add("other:x");
            assertThat(heardByTwo).containsExactlyElementsOf(expected);
            Thread.sleep(200);
            assertThat(heardByOne).as("an instance does not hear itself").isEmpty();
        }
    }

    @Test
    void aSignalThePoolCannotSendIsSentFromTheListeningConnectionNulAndAll() throws Exception {
        // Its pool refuses every connection: what it tells is queued and sent on the connection it listens on,
        // which is not the pool's. A NUL (a stop's user may hold one) would make PostgreSQL refuse the payload
        // there for good, and hold up every signal after it.
        org.jdbi.v3.core.Jdbi down = org.jdbi.v3.core.Jdbi.create(() -> {
            throw new java.sql.SQLException("the pool is down");
        });
        try (PostgresInstanceSignals one = new PostgresInstanceSignals(cluster.url(name), PostgresCluster.USER,
                PostgresCluster.PASSWORD, down, "one"); PostgresInstanceSignals two = signals(second, "two")) {
            assertThat(one.awaitHearing(5_000)).isTrue();
            List<String> heard = new CopyOnWriteArrayList<>();
            two.hear("stop", heard::add);

            one.tell("stop", "app\ntask\nada\u0000");
            one.tell("stop", "after");

            assertThat(within(5_000, () -> heard.size() == 2)).as(heard.toString()).isTrue();
            assertThat(heard).containsExactly("app\ntask\nada\uFFFD", "after");
        }
    }

    @Test
    void anInstanceThatLosesItsConnectionDistrustsWhatItKeepsAndHearsAgainOnANewOne() throws Exception {
        try (PostgresInstanceSignals one = signals(first, "one"); PostgresInstanceSignals two = signals(second, "two")) {
            AtomicInteger missed = new AtomicInteger();
            List<Boolean> hearingWhenMissed = new CopyOnWriteArrayList<>();
            two.onMissed(() -> {
                hearingWhenMissed.add(two.hearing());
                missed.incrementAndGet();
            });
            List<String> heard = new CopyOnWriteArrayList<>();
            two.hear("topic", heard::add);

            // The connection the second instance hears on is ended by the server, as a restart or a network would.
            int ended = first.jdbi().withHandle(handle -> handle.createQuery("SELECT COUNT(pg_terminate_backend(pid)) "
                    + "FROM pg_stat_activity WHERE application_name = 'hexaflow-signals' AND datname = "
                    + "current_database()").mapTo(Integer.class).one());
            assertThat(ended).as("both instances' listening connections").isEqualTo(2);

            assertThat(within(3_000, () -> missed.get() >= 1)).as("told it may have missed messages").isTrue();
            assertThat(within(5_000, two::hearing)).as("hearing again on a new connection").isTrue();
            assertThat(hearingWhenMissed).as("not trusted to hear while it may miss, so caches read the store")
                    .isNotEmpty().containsOnly(false);
            assertThat(within(5_000, one::hearing)).isTrue();
            one.tell("topic", "after");
            assertThat(within(5_000, () -> heard.contains("after"))).isTrue();
        }
    }

    @Test
    void aSignalTooLongForPostgresqlIsRefusedBeforeItIsSent() throws Exception {
        try (PostgresInstanceSignals one = signals(first, "one")) {
            assertThatThrownBy(() -> one.tell("topic", "x".repeat(8_000)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bytes at most");
        }
    }

    @Test
    void runsOfAnInstanceWhoseLeaseRanOutAreFailedOnceAndALiveInstancesRunsGoOn() {
        JdbiRunRepository live = new JdbiRunRepository(first.jdbi(), WriteGate.OPEN, "live");
        JdbiRunRepository dead = new JdbiRunRepository(second.jdbi(), WriteGate.OPEN, "dead");
        JdbiInstanceLeases leases =
                new JdbiInstanceLeases(first.jdbi());
        try {
            assertThat(leases.renew("dead", 1_000, -9_000, new Served("a", "127.0.0.1:8081"))).as("a new lease")
                    .isFalse();
            leases.renew("live", 1_000, -9_000, null);
            assertThat(leases.renew("live", 10_500, 500, new Served("b", "127.0.0.1:8082"))).as("renewed").isTrue();
            assertThat(leases.anyLapsed(10_000)).as("dead's").isTrue();
            assertThat(leases.served(10_000)).as("where the live instances serve")
                    .containsExactly(new Served("b", "127.0.0.1:8082"));
            start(live, "live-run");
            start(dead, "dead-run");

            assertThat(dead.failRunsOfLapsedInstances("gone", 21, 10_000)).isEqualTo(1);
            assertThat(live.failRunsOfLapsedInstances("gone", 21, 10_000)).as("failed once").isZero();
            assertThat(leases.forgetLapsed(10_000)).isEqualTo(1);
            assertThat(leases.anyLapsed(10_000)).isFalse();
            assertThat(leases.renew("dead", 21_000, 11_000, null)).as("a lease forgotten is not held: it is taken "
                    + "anew").isFalse();
            assertThat(leases.renew("live", 25_000, 15_000, null))
                    .as("a lease run out, not forgotten yet, is not held either: its runs may be failed already")
                    .isFalse();
            assertThat(leases.renew("live", 26_000, 16_000, null)).as("taken anew, then held").isTrue();
            leases.release("dead");

            assertThat(live.find(APP, "dead-run").orElseThrow().status())
                    .isEqualTo(RunStatus.FAILED);
            assertThat(live.find(APP, "dead-run").orElseThrow().error()).isEqualTo("gone");
            assertThat(live.find(APP, "live-run").orElseThrow().status())
                    .isEqualTo(RunStatus.RUNNING);
            // Once its lease is gone too, the live instance's runs are another's to fail.
            leases.release("live");
            assertThat(dead.failRunsOfLapsedInstances("gone", 22, 10_000)).isEqualTo(1);
        } finally {
            live.close();
            dead.close();
        }
    }

    @Test
    void theFirstRunsOfAnAppStartedOnTwoInstancesAtOnceAreAllKeptAndCounted() throws Exception {
        JdbiRunRepository firstRuns = new JdbiRunRepository(first.jdbi(), WriteGate.OPEN, "first");
        JdbiRunRepository secondRuns = new JdbiRunRepository(second.jdbi(), WriteGate.OPEN, "second");
        int apps = 40;
        try {
            // Each app's first run on each instance at once: both find no count to add to, and both would insert
            // it, unless adding is one statement.
            List<String> kept = onThreads(2, thread -> {
                JdbiRunRepository runs = thread == 0 ? firstRuns : secondRuns;
                List<String> mine = new ArrayList<>();
                for (int i = 0; i < apps; i++) {
                    String id = "run-" + i + "-" + thread;
                    start(runs, "app-" + i, id);
                    mine.add(id);
                }
                return mine;
            });

            assertThat(kept).hasSize(2 * apps);
            List<Long> counts = first.jdbi().withHandle(handle -> handle.createQuery("SELECT n FROM run_count "
                    + "WHERE status = 'running' ORDER BY app_id").mapTo(Long.class).list());
            assertThat(counts).as("two running runs counted for every app").hasSize(apps).containsOnly(2L);
        } finally {
            firstRuns.close();
            secondRuns.close();
        }
    }

    private static void start(JdbiRunRepository runs, String id) {
        start(runs, APP, id);
    }

    private static void start(JdbiRunRepository runs, String app, String id) {
        WorkflowRun run = WorkflowRun.started(id, "wf-1",
                Map.of(), 10);
        runs.started(new StartedRun(run, app, "task-" + id,
                new EndUser("user-" + id, app, "ada", 1), "v-" + id, "log-" + id)).join();
    }

    private PostgresInstanceSignals signals(PostgresDatabase database, String instance) throws InterruptedException {
        PostgresInstanceSignals signals = new PostgresInstanceSignals(cluster.url(name), PostgresCluster.USER,
                PostgresCluster.PASSWORD, database.jdbi(), instance);
        assertThat(signals.awaitHearing(5_000)).isTrue();
        return signals;
    }

    private static boolean within(long millis, BooleanSupplier condition)
            throws InterruptedException {
        long until = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < until) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }
}
