package dev.hexaflow.app;

import dev.hexaflow.adapters.persistence.memory.InMemoryInstanceSignals;
import dev.hexaflow.application.common.port.out.InstanceSignals;
import java.util.UUID;

/**
 * This process among the instances that serve its store: its id (kept with the runs it runs), the signals between
 * the instances, and whether there may be others at all (a PostgreSQL store; H2's data directory is locked to one
 * process).
 */
record Instance(String id, InstanceSignals signals, boolean shared) {

    /** An instance alone on its store. */
    static Instance alone() {
        return new Instance(UUID.randomUUID().toString(), InMemoryInstanceSignals.ALONE, false);
    }
}
