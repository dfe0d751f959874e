package dev.hexaflow.application.instances;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.jdbi.JdbiInstanceLeases;
import dev.hexaflow.adapters.persistence.memory.InMemoryRunRepository;
import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.instances.port.in.ListInstancesUseCase.InstanceView;
import dev.hexaflow.application.instances.port.in.ListInstancesUseCase.Instances;
import dev.hexaflow.application.instances.port.out.InstanceLeases.Served;
import dev.hexaflow.application.instances.service.InstanceLease;
import dev.hexaflow.application.instances.service.ListInstancesService;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's list of instances, read from the shipped lease table on H2 in memory (whose clock is the
 * database's, as PostgreSQL's is for instances that share one). A lease is written at a time of the test's choosing
 * to make it live or run out.
 */
class ListInstancesServiceTest {

    /** One database for the class, emptied before each test: migrating one takes seconds. */
    private static H2Database database;
    private final JdbiInstanceLeases leases = new JdbiInstanceLeases(database.jdbi());
    private Optional<StorageUnavailableException> storeProblem = Optional.empty();
    private final StorageHealth storage = () -> storeProblem;
    private final ListInstancesService shared = new ListInstancesService(leases, storage, "me", true);

    @BeforeAll
    static void open() {
        database = H2Database.openInMemory("instances-" + UUID.randomUUID());
    }

    @BeforeEach
    void empty() {
        database.jdbi().useHandle(handle -> handle.execute("DELETE FROM instance_lease"));
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /** Writes {@code instance}'s lease as renewed {@code ago} milliseconds before the store's now. */
    private void renewed(String instance, long ago, Served served) {
        long at = leases.now() - ago;
        leases.renew(instance, at, at - InstanceLease.LASTS.toMillis(), served);
    }

    @Test
    void aServerAloneOnItsStoreSaysSoAndListsNoLeaseWhateverTheTableHolds() {
        renewed("me", 0, new Served("host-a", "127.0.0.1:8080"));

        Instances alone = new ListInstancesService(leases, storage, "me", false).list();

        assertThat(alone.shared()).isFalse();
        assertThat(alone.instances()).isEmpty();
        assertThat(alone.storeProblem()).isNull();
    }

    @Test
    void aSharedStoreListsEveryLeaseOldestFirstWithWhereItServesAndWhichOneAnswers() {
        renewed("other", 3_000, new Served("host-b", "10.0.0.2:8080"));
        renewed("me", 1_000, new Served("host-a", "10.0.0.1:8080"));

        Instances listed = shared.list();

        assertThat(listed.shared()).isTrue();
        assertThat(listed.instances()).extracting(InstanceView::id).containsExactly("other", "me");
        assertThat(listed.instances()).extracting(InstanceView::answering).containsExactly(false, true);
        assertThat(listed.instances()).allSatisfy(view -> assertThat(view.live()).isTrue());
        assertThat(listed.instances().get(0).machine()).isEqualTo("host-b");
        assertThat(listed.instances().get(0).origin()).isEqualTo("10.0.0.2:8080");
    }

    @Test
    void aLeaseNotRenewedForLongerThanItLastsIsListedAsNotLiveUntilItIsForgotten() {
        long lasts = InstanceLease.LASTS.toMillis();
        renewed("me", 0, null);
        renewed("dead", lasts + 5_000, new Served("host-c", "10.0.0.3:8080"));
        renewed("slow", lasts - 5_000, null);

        Instances listed = shared.list();

        assertThat(listed.instances()).filteredOn(InstanceView::live).extracting(InstanceView::id)
                .containsExactlyInAnyOrder("me", "slow");
        assertThat(listed.instances()).filteredOn(view -> view.id().equals("dead")).singleElement()
                .satisfies(view -> assertThat(view.renewedAt()).isLessThan(leases.now() - lasts));
        leases.forgetLapsed(leases.now() - lasts);
        assertThat(shared.list().instances()).extracting(InstanceView::id).doesNotContain("dead");
    }

    @Test
    void anInstanceNotServingYetHasNoMachineOrOrigin() {
        renewed("starting", 0, null);

        InstanceView view = shared.list().instances().get(0);

        assertThat(view.machine()).isNull();
        assertThat(view.origin()).isNull();
        assertThat(view.startedAt()).isEqualTo(view.renewedAt());
    }

    @Test
    void theStoresProblemIsToldWithItsWordAndReasonWhetherSharedOrNot() {
        storeProblem = Optional.of(new StorageUnavailableException(StorageUnavailableException.Kind.DISK_LOW,
                "The disk is almost full."));

        Instances sharedView = shared.list();
        Instances aloneView = new ListInstancesService(leases, storage, "me", false).list();

        assertThat(sharedView.storeProblem()).isEqualTo("disk_low");
        assertThat(sharedView.storeReason()).isEqualTo("The disk is almost full.");
        assertThat(aloneView.storeProblem()).isEqualTo("disk_low");
        storeProblem = Optional.empty();
        assertThat(shared.list().storeReason()).isNull();
    }

    @Test
    void anInstancesOwnLeaseShowsOnceRenewedWithWhereItServesAndIsGoneOnceReleased() {
        InstanceLease lease = new InstanceLease("me", leases, new InMemoryRunRepository(), () -> { }, () -> { });
        lease.serving(new Served("host-a", "10.0.0.1:8080"));

        lease.renewAndSweep();
        Instances whileServing = shared.list();
        lease.release();

        assertThat(whileServing.instances()).singleElement().satisfies(view -> {
            assertThat(view.answering()).isTrue();
            assertThat(view.live()).isTrue();
            assertThat(view.origin()).isEqualTo("10.0.0.1:8080");
        });
        assertThat(shared.list().instances()).isEmpty();
    }

    @Test
    void aRenewalSweepsTheLeasesOfInstancesThatDiedFromTheList() {
        renewed("dead", InstanceLease.LASTS.toMillis() + 5_000, new Served("host-c", "10.0.0.3:8080"));
        InstanceLease lease = new InstanceLease("me", leases, new InMemoryRunRepository(), () -> { }, () -> { });

        lease.renewAndSweep();

        assertThat(shared.list().instances()).extracting(InstanceView::id).containsExactly("me");
    }
}
