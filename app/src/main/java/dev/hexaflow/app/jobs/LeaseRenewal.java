package dev.hexaflow.app.jobs;

import dev.hexaflow.app.wiring.InstanceOrigins;
import dev.hexaflow.application.instances.service.InstanceLease;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where instances share the store, renews this instance's lease every {@link InstanceLease#RENEW_EVERY}: renews it
 * (with where it serves, once it serves), fails the runs of instances whose leases ran out, and lets workflows call
 * the instances that live. It starts with the start's first renewal, so that a long first start keeps the lease
 * too, and renews once more as the instance starts serving.
 */
public final class LeaseRenewal implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseRenewal.class);

    private final InstanceLease lease;
    private final InstanceOrigins origins;
    private final String machine;
    private final ScheduledExecutorService thread = DaemonThreads.scheduler("hexaflow-lease");

    public LeaseRenewal(InstanceLease lease, InstanceOrigins origins, String machine) {
        this.lease = lease;
        this.origins = origins;
        this.machine = machine;
    }

    public void start() {
        thread.scheduleWithFixedDelay(this::renew, InstanceLease.RENEW_EVERY.toMillis(),
                InstanceLease.RENEW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One renewal now, on the lease's thread: where the instance serves is told at once. */
    public void renewNow() {
        thread.execute(this::renew);
    }

    private void renew() {
        try {
            int failed = lease.renewAndSweep();
            if (failed > 0) {
                LOG.warn("{} runs of an instance that stopped answering are now failed", failed);
            }
            // The other instances serve the same API: where workflows may call this one
            // (HEXAFLOW_OUTBOUND_ALLOW_SELF), they may call those too.
            if (origins.outboundToItself()) {
                origins.allowInstanceOrigins(lease.liveInstances(), machine);
            }
        } catch (Throwable e) {
            // Caught whole: a task that throws is never run again by its executor.
            LOG.warn("Renewing this instance's lease failed; the next try is in {} s: {}",
                    InstanceLease.RENEW_EVERY.toSeconds(), e.toString());
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
