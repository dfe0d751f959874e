package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.common.port.out.InstanceSignals;
import java.util.function.Consumer;

/**
 * The signals of an instance alone on its store (H2, whose data directory is locked to one process, or a store in
 * memory): there is no other instance to tell, and none to hear; it always hears, since it misses nothing.
 */
public final class InMemoryInstanceSignals implements InstanceSignals {

    /** The one such instance's signals: they hold nothing. */
    public static final InstanceSignals ALONE = new InMemoryInstanceSignals();

    private InMemoryInstanceSignals() {
    }

    @Override
    public void tell(String topic, String message) {
    }

    @Override
    public void hear(String topic, Consumer<String> listener) {
    }

    @Override
    public boolean hearing() {
        return true;
    }

    @Override
    public void onMissed(Runnable action) {
    }
}
