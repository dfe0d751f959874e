package dev.hexaflow.application.instances.service;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.instances.port.in.ListInstancesUseCase;
import dev.hexaflow.application.instances.port.out.InstanceLeases;
import java.util.Optional;

/**
 * Reads the leases with the store's clock, so that whether a lease is live does not depend on the machine that
 * answers; a lease renewed within {@link InstanceLease#LASTS} is live.
 */
public final class ListInstancesService implements ListInstancesUseCase {

    private final InstanceLeases leases;
    private final StorageHealth storage;
    private final String answering;
    private final boolean shared;

    /**
     * @param answering the id of this instance, the one that answers
     * @param shared    whether instances share the store and hold leases (an instance alone on H2 holds none)
     */
    public ListInstancesService(InstanceLeases leases, StorageHealth storage, String answering, boolean shared) {
        this.leases = leases;
        this.storage = storage;
        this.answering = answering;
        this.shared = shared;
    }

    @Override
    public Instances list() {
        Optional<StorageUnavailableException> problem = storage.problem();
        if (!shared) {
            return new Instances(false, problem.map(p -> p.kind().word()).orElse(null),
                    problem.map(Throwable::getMessage).orElse(null), java.util.List.of());
        }
        long cutoff = leases.now() - InstanceLease.LASTS.toMillis();
        return new Instances(true, problem.map(p -> p.kind().word()).orElse(null),
                problem.map(Throwable::getMessage).orElse(null), leases.leases().stream()
                        .map(lease -> new InstanceView(lease.instance(), lease.machine(), lease.origin(),
                                lease.startedAt(), lease.renewedAt(), lease.renewedAt() >= cutoff,
                                lease.instance().equals(answering)))
                        .toList());
    }
}
