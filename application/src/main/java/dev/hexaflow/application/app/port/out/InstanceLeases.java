package dev.hexaflow.application.app.port.out;

/**
 * The leases of the instances serving one store: each instance renews its own every few seconds while it lives,
 * so an instance whose lease has not been renewed for longer than the lease lasts has died.
 */
public interface InstanceLeases {

    /**
     * Takes {@code instance}'s lease, or renews it, as of {@code now} (Unix milliseconds).
     *
     * @param origin where the instance serves ({@code host:port}), once it does; null before
     */
    void renew(String instance, long now, String origin);

    /** The origins of the instances whose leases were renewed at {@code cutoff} (Unix milliseconds) or after. */
    java.util.List<String> origins(long cutoff);

    /** Gives {@code instance}'s lease up: it stops, and runs nothing more. */
    void release(String instance);

    /** Forgets the leases last renewed before {@code cutoff} (Unix milliseconds); answers how many. */
    int forgetLapsed(long cutoff);
}
