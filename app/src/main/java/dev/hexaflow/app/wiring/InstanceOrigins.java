package dev.hexaflow.app.wiring;

import dev.hexaflow.application.instances.port.out.InstanceLeases;
import dev.hexaflow.domain.net.IpAddress;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.net.ReservedRange;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbound address policy every outbound call of this server goes through: the configured one, plus, where the
 * operator allows workflows to call this server itself (HEXAFLOW_OUTBOUND_ALLOW_SELF), the origins this instance
 * and its sibling instances serve on.
 */
public final class InstanceOrigins implements Supplier<OutboundPolicy> {

    private static final Logger LOG = LoggerFactory.getLogger(InstanceOrigins.class);

    /** The outbound policy as configured, before the origins of this instance and its siblings are allowed. */
    private final OutboundPolicy configured;
    private final boolean outboundToItself;
    private final AtomicReference<OutboundPolicy> current;
    private final Set<Origin> ownOrigins = ConcurrentHashMap.newKeySet();
    private volatile List<Origin> instanceOrigins = List.of();
    /** The live instances whose origins {@link #instanceOrigins} holds. */
    private volatile List<InstanceLeases.Served> instancesServed = List.of();

    public InstanceOrigins(OutboundPolicy configured, boolean outboundToItself) {
        this.configured = configured;
        this.outboundToItself = outboundToItself;
        this.current = new AtomicReference<>(configured);
    }

    /** The policy as it stands now. */
    @Override
    public OutboundPolicy get() {
        return current.get();
    }

    /**
     * Whether workflows may call this server itself (HEXAFLOW_OUTBOUND_ALLOW_SELF; not by default): its loopback
     * address is refused like any other's unless the operator opens it.
     */
    public boolean outboundToItself() {
        return outboundToItself;
    }

    /**
     * Lets workflows call this server itself on the port it answers on, where the operator allows it
     * ({@link #outboundToItself()}); its API is what every client of the server reaches anyway.
     */
    public void allowOwnOrigin(String host, int port) {
        ownOrigins.addAll(resolved(host, port));
        publish();
    }

    /**
     * Lets workflows call the other instances of the store as this one: they serve the same API. A loopback or
     * wildcard origin is allowed only from an instance on this machine ({@code machine}): on another machine it
     * names that machine's own, and here it would be some other service of this one. Replaces the instances allowed
     * before, so that one gone is no longer allowed.
     */
    public void allowInstanceOrigins(Collection<InstanceLeases.Served> instances, String machine) {
        List<InstanceLeases.Served> live = List.copyOf(instances);
        if (live.equals(instancesServed)) {
            return; // asked every lease renewal: the same instances are resolved and allowed once
        }
        instancesServed = live;
        List<Origin> allowed = new ArrayList<>();
        for (InstanceLeases.Served served : instances) {
            String origin = served.origin();
            int colon = origin.lastIndexOf(':');
            try {
                int port = Integer.parseInt(origin.substring(colon + 1));
                for (Origin resolved : resolved(origin.substring(0, colon).replace("[", "").replace("]", ""),
                        port)) {
                    if (machine.equals(served.machine()) || !namesItsOwnMachine(resolved.address())) {
                        allowed.add(resolved);
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("An instance's origin '{}' is not host:port; it is not allowed", origin);
            }
        }
        instanceOrigins = List.copyOf(allowed);
        publish();
    }

    /** Whether an address means the machine it is used on: loopback, or unspecified. */
    private static boolean namesItsOwnMachine(IpAddress address) {
        return ReservedRange.of(address).filter(range -> range == ReservedRange.LOOPBACK
                || range == ReservedRange.UNSPECIFIED).isPresent();
    }

    /** An address and port workflows may call as this server. */
    private record Origin(IpAddress address, int port) {
    }

    /** The configured policy with this instance's and its siblings' origins, made and set under one lock. */
    private synchronized void publish() {
        OutboundPolicy policy = configured;
        for (Origin origin : ownOrigins) {
            policy = policy.allowingOwnOrigin(origin.address(), origin.port());
        }
        for (Origin origin : instanceOrigins) {
            policy = policy.allowingOwnOrigin(origin.address(), origin.port());
        }
        current.set(policy);
    }

    private static List<Origin> resolved(String host, int port) {
        List<Origin> origins = new ArrayList<>();
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                origins.add(new Origin(IpAddress.of(address.getAddress()), port));
            }
        } catch (UnknownHostException e) {
            LOG.warn("The host {} does not resolve; workflows cannot call the server there", host);
        }
        return origins;
    }
}
