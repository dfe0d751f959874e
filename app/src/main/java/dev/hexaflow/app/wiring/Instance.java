package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.memory.InMemoryInstanceSignals;
import dev.hexaflow.application.common.port.out.InstanceSignals;
import java.util.UUID;

/**
 * This process among the instances that serve its store: its id (kept with the runs it runs), the signals between
 * the instances, and whether there may be others at all (a PostgreSQL store; H2's data directory is locked to one
 * process).
 */
public record Instance(String id, InstanceSignals signals, boolean shared) {

    /**
     * The name of the machine this process runs on, as the other instances are told where it serves: a loopback
     * origin is reachable only from the same machine. One whose name cannot be read is told apart from every other.
     */
    public String machine() {
        return MACHINE;
    }

    private static final String MACHINE = machineName();

    private static String machineName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "unnamed-" + UUID.randomUUID();
        }
    }

    /** An instance alone on its store. */
    static Instance alone() {
        return new Instance(UUID.randomUUID().toString(), InMemoryInstanceSignals.ALONE, false);
    }
}
