package dev.hexaflow.application.instances.port.out;

/**
 * The leases of the instances serving one store: each instance renews its own every few seconds while it lives,
 * so an instance whose lease has not been renewed for longer than the lease lasts has died.
 */
public interface InstanceLeases {

    /** The store's clock, in Unix milliseconds: one clock for every instance, whatever their machines' say. */
    long now();

    /**
     * Takes {@code instance}'s lease, or renews it, as of {@code now} (Unix milliseconds); answers whether it held
     * one: false the first time, and when its lease had run out (last renewed before {@code cutoff}, whose runs
     * another instance may have failed already) or was forgotten.
     *
     * @param served where the instance serves, once it does; null before
     */
    boolean renew(String instance, long now, long cutoff, Served served);

    /** Where the instances whose leases were renewed at {@code cutoff} (Unix milliseconds) or after serve. */
    java.util.List<Served> served(long cutoff);

    /**
     * Where an instance serves: the name of its machine, and its origin there ({@code host:port}); a loopback
     * origin is that machine's own.
     */
    record Served(String machine, String origin) {
    }

    /** Every lease kept, live or run out (until forgotten), oldest start first: the operator's view. */
    java.util.List<Lease> leases();

    /**
     * A lease as kept: its instance, when it was taken and last renewed (Unix milliseconds, the store's clock),
     * and where the instance serves (null fields before it does).
     */
    record Lease(String instance, long startedAt, long renewedAt, String machine, String origin) {
    }

    /** Gives {@code instance}'s lease up: it stops, and runs nothing more. */
    void release(String instance);

    /** Whether a lease was last renewed before {@code cutoff} (Unix milliseconds): its instance has died. */
    boolean anyLapsed(long cutoff);

    /** Forgets the leases last renewed before {@code cutoff} (Unix milliseconds); answers how many. */
    int forgetLapsed(long cutoff);
}
