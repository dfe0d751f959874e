package dev.hexaflow.application.instances.port.in;

import java.util.List;

/**
 * The operator's view of the instances serving the store: each one's lease, whether it is live, and which one
 * answers; and whether the store takes new work now.
 */
public interface ListInstancesUseCase {

    Instances list();

    /**
     * @param shared       whether instances share the store (PostgreSQL) and hold leases; an instance alone on its
     *                     store (H2) holds none, and the list is empty
     * @param storeProblem why the store refuses new work now ({@code disk_low}, {@code writes_failing}, out of
     *                     reach), or null while it takes it
     * @param storeReason  the store's reason in words, or null
     */
    record Instances(boolean shared, String storeProblem, String storeReason, List<InstanceView> instances) {
        public Instances {
            instances = List.copyOf(instances);
        }
    }

    /**
     * An instance: its id, where it serves, when its lease was taken and last renewed (Unix milliseconds), whether
     * the lease is live (renewed within how long a lease lasts), and whether it is the one answering.
     */
    record InstanceView(String id, String machine, String origin, long startedAt, long renewedAt, boolean live,
            boolean answering) {
    }
}
