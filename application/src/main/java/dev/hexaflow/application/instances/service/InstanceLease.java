package dev.hexaflow.application.instances.service;

import dev.hexaflow.application.instances.port.out.InstanceLeases;
import dev.hexaflow.application.runs.port.out.RunRepository;
import java.time.Duration;
import java.util.function.LongConsumer;

/**
 * This instance's lease among the instances that share a store, and the end of the runs of those that died: every
 * {@link #RENEW_EVERY} it renews its lease, then fails the runs still running of every instance whose lease ran out
 * ({@link #LASTS} without a renewal) and forgets those leases. Every instance does the same, so the runs of one that
 * dies are failed by whichever comes first, within {@link #LASTS} and one renewal.
 */
public final class InstanceLease {

    /** How often an instance renews its lease. */
    public static final Duration RENEW_EVERY = Duration.ofSeconds(2);
    /**
     * How long a lease lasts unrenewed: five renewals, so that a pause of the process (a long garbage collection, a
     * database that answers slowly for a few seconds) does not end the runs of an instance that lives.
     */
    public static final Duration LASTS = Duration.ofSeconds(10);
    /** The error of a run whose instance died. */
    public static final String REASON = "The server running it stopped answering during the run; another instance "
            + "ended it.";

    private final String instance;
    private final InstanceLeases leases;
    private final RunRepository runs;
    private final Runnable afterFailing;
    private final Runnable lost;
    private final LongConsumer sweepAlso;
    private volatile InstanceLeases.Served served;
    private boolean held;
    private boolean released;
    private volatile long liveSince;

    /**
     * @param afterFailing runs after runs were failed (their chat turns end, their webhooks go)
     * @param lost         runs when this instance finds its own lease ran out (it paused longer than a lease
     *                     lasts): another instance has failed its runs, which are to be stopped here
     */
    public InstanceLease(String instance, InstanceLeases leases, RunRepository runs, Runnable afterFailing,
            Runnable lost) {
        this(instance, leases, runs, afterFailing, lost, cutoff -> { });
    }

    /**
     * @param sweepAlso ends, given the lease cutoff, what else the instances whose leases ran out left unfinished
     *                  (the documents they were indexing), at each sweep
     */
    public InstanceLease(String instance, InstanceLeases leases, RunRepository runs, Runnable afterFailing,
            Runnable lost, LongConsumer sweepAlso) {
        this.sweepAlso = sweepAlso;
        this.instance = instance;
        this.leases = leases;
        this.runs = runs;
        this.afterFailing = afterFailing;
        this.lost = lost;
    }

    /** This instance serves there from now on, which its lease tells the others. */
    public void serving(InstanceLeases.Served served) {
        this.served = served;
    }

    /** Where the instances whose leases were live at the last renewal serve, this one included once it serves. */
    public java.util.List<InstanceLeases.Served> liveInstances() {
        return leases.served(liveSince);
    }

    /**
     * The store's time (ms) before which a lease not renewed had lapsed at the last renewal: its time, less {@link
     * #LASTS}.
     */
    public long liveSince() {
        return liveSince;
    }

    /**
     * Renews this instance's lease, then fails the runs of the instances whose leases ran out; answers how many.
     * Times are the store's, so that machines whose clocks differ judge a lease alike. The runs are swept at the
     * first renewal (runs of instances gone before this one started) and then only while a lease has run out, so
     * that a renewal is a few short statements while every instance lives.
     */
    public synchronized int renewAndSweep() {
        if (released) {
            return 0;
        }
        long now = leases.now();
        long cutoff = now - LASTS.toMillis();
        liveSince = cutoff;
        boolean first = !held;
        boolean renewed = leases.renew(instance, now, cutoff, served);
        if (held && !renewed) {
            lost.run();
        }
        held = true;
        if (!first && !leases.anyLapsed(cutoff)) {
            return 0;
        }
        int failed = runs.failRunsOfLapsedInstances(REASON, now / 1000, cutoff);
        sweepAlso.accept(cutoff);
        leases.forgetLapsed(cutoff);
        if (failed > 0) {
            afterFailing.run();
        }
        return failed;
    }

    /** Gives the lease up as the instance stops, once its runs have ended. */
    public synchronized void release() {
        released = true;
        leases.release(instance);
    }
}
