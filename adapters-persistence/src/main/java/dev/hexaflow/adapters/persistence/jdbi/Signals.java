package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.adapters.persistence.memory.InMemoryInstanceSignals;
import dev.hexaflow.application.common.port.out.InstanceSignals;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.JdbiConfig;

/**
 * The {@link InstanceSignals} of the instances that share a Jdbi's store, carried by the Jdbi as its
 * {@link SqlDialect} is, so that every repository made on it tells and hears the same: {@link
 * InMemoryInstanceSignals#ALONE} unless the database that made the Jdbi set others ({@link #applyTo}).
 */
public final class Signals implements JdbiConfig<Signals> {

    private InstanceSignals signals = InMemoryInstanceSignals.ALONE;

    public Signals() {
    }

    private Signals(InstanceSignals signals) {
        this.signals = signals;
    }

    /** The signals set on {@code jdbi}. */
    public static InstanceSignals of(Jdbi jdbi) {
        return jdbi.getConfig(Signals.class).signals;
    }

    /** Makes {@code signals} those of {@code jdbi}, for the repositories made on it from now on. */
    public static void applyTo(Jdbi jdbi, InstanceSignals signals) {
        jdbi.getConfig(Signals.class).signals = signals;
    }

    @Override
    public Signals createCopy() {
        return new Signals(signals);
    }
}
