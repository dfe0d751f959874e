package dev.hexaflow.adapters.persistence;

import static dev.hexaflow.adapters.persistence.WorkflowFixtures.APP;
import static dev.hexaflow.adapters.persistence.WorkflowFixtures.app;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDeliveryRepository;
import dev.hexaflow.application.webhook.port.out.DeliveryRepository.Claim;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import dev.hexaflow.domain.webhook.CallbackUrl;
import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances on one PostgreSQL database, each with a pool of its own as two processes would have: a campus
 * key's uses counted on both at once are each numbered once and add up exactly, a ban made on one is seen by the
 * other at once, and due webhook deliveries claimed from both at once are each claimed once.
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
            while ((claim = deliveries.claimNext(5000, 60_000, Set.of())).isPresent()) {
                assertThat(claim.get().until()).isEqualTo(60_000);
                mine.add(claim.get().delivery().id());
            }
            return mine;
        });

        assertThat(claimed).hasSize(due).doesNotHaveDuplicates();
        assertThat(firstDeliveries.claimNext(5000, 60_000, Set.of())).isEmpty();
        assertThat(secondDeliveries.claimNext(5000, 60_000, Set.of())).isEmpty();
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
}
