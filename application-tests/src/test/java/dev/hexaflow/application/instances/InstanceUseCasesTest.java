package dev.hexaflow.application.instances;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.instances.port.out.InstanceLeases;
import dev.hexaflow.application.instances.service.CheckStorageService;
import dev.hexaflow.application.instances.service.InstanceLease;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An instance's lease among instances that share a store, on a hand-written lease table whose clock moves when
 * told (the shipped one is the database's), and the storage check the probes ask.
 */
class InstanceUseCasesTest {

    private final Leases leases = new Leases();
    private final AtomicInteger lost = new AtomicInteger();
    private final List<Long> sweeps = new ArrayList<>();
    private final InstanceLease lease = new InstanceLease("me", leases, new InMemoryRunRepository(), () -> { },
            lost::incrementAndGet, sweeps::add);

    @Test
    void theFirstRenewalTakesTheLeaseAndSweepsWhatInstancesGoneBeforeLeft() {
        int failed = lease.renewAndSweep();

        assertThat(failed).isZero();
        assertThat(leases.renewed).containsKey("me");
        assertThat(sweeps).containsExactly(leases.now - InstanceLease.LASTS.toMillis());
        assertThat(lease.liveSince()).isEqualTo(leases.now - InstanceLease.LASTS.toMillis());
    }

    @Test
    void whileEveryInstanceLivesARenewalSweepsNothing() {
        lease.renewAndSweep();
        leases.renewed.put("other", leases.now);
        leases.now += InstanceLease.RENEW_EVERY.toMillis();

        lease.renewAndSweep();

        assertThat(sweeps).hasSize(1);
        assertThat(leases.renewed).containsKeys("me", "other");
        assertThat(lost).hasValue(0);
    }

    @Test
    void anInstanceWhoseLeaseRanOutIsSweptAndForgotten() {
        lease.renewAndSweep();
        leases.renewed.put("dead", leases.now);
        leases.now += InstanceLease.LASTS.toMillis() / 2;
        lease.renewAndSweep();
        leases.now += InstanceLease.LASTS.toMillis();

        lease.renewAndSweep();

        assertThat(sweeps).hasSize(2);
        assertThat(leases.renewed).containsOnlyKeys("me");
        assertThat(lost).as("its own lease was renewed in time").hasValue(0);
    }

    @Test
    void anInstanceThatPausedPastItsLeaseIsToldItLostIt() {
        lease.renewAndSweep();
        leases.now += InstanceLease.LASTS.toMillis() + 1;

        lease.renewAndSweep();

        assertThat(lost).hasValue(1);
    }

    @Test
    void aReleasedLeaseIsGivenUpAndNeverRenewedAgain() {
        lease.renewAndSweep();
        lease.serving(new InstanceLeases.Served("host-a", "10.0.0.1:8080"));
        lease.renewAndSweep();
        assertThat(lease.liveInstances()).containsExactly(new InstanceLeases.Served("host-a", "10.0.0.1:8080"));

        lease.release();
        lease.renewAndSweep();

        assertThat(leases.renewed).isEmpty();
        assertThat(lease.liveInstances()).isEmpty();
    }

    @Test
    void theStorageCheckReportsTheStoresOwnProblem() {
        StorageUnavailableException full = new StorageUnavailableException(StorageUnavailableException.Kind.DISK_LOW,
                "The disk is almost full.");
        AtomicReference<Optional<StorageUnavailableException>> problem = new AtomicReference<>(Optional.empty());
        CheckStorageService check = new CheckStorageService(problem::get);

        assertThat(check.problem()).isEmpty();
        problem.set(Optional.of(full));
        assertThat(check.problem()).containsSame(full);
        assertThat(check.unavailableBehind(new RuntimeException("x"))).isEmpty();
    }

    /** A lease table in memory, whose clock ({@link #now}, Unix milliseconds) moves when a test moves it. */
    private static final class Leases implements InstanceLeases {
        long now = 1_000_000;
        final Map<String, Long> renewed = new HashMap<>();
        final Map<String, Served> where = new HashMap<>();

        @Override
        public long now() {
            return now;
        }

        @Override
        public boolean renew(String instance, long at, long cutoff, Served served) {
            Long last = renewed.put(instance, at);
            if (served != null) {
                where.put(instance, served);
            }
            return last != null && last >= cutoff;
        }

        @Override
        public List<Served> served(long cutoff) {
            return renewed.entrySet().stream().filter(e -> e.getValue() >= cutoff && where.containsKey(e.getKey()))
                    .map(e -> where.get(e.getKey())).toList();
        }

        @Override
        public List<Lease> leases() {
            return renewed.entrySet().stream().map(e -> new Lease(e.getKey(), 0, e.getValue(),
                    where.containsKey(e.getKey()) ? where.get(e.getKey()).machine() : null,
                    where.containsKey(e.getKey()) ? where.get(e.getKey()).origin() : null)).toList();
        }

        @Override
        public void release(String instance) {
            renewed.remove(instance);
        }

        @Override
        public boolean anyLapsed(long cutoff) {
            return renewed.values().stream().anyMatch(at -> at < cutoff);
        }

        @Override
        public int forgetLapsed(long cutoff) {
            int before = renewed.size();
            renewed.values().removeIf(at -> at < cutoff);
            return before - renewed.size();
        }
    }
}
