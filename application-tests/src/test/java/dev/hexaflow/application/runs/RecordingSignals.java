package dev.hexaflow.application.runs;

import dev.hexaflow.application.common.port.out.InstanceSignals;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** Other instances of the store, faked: keeps what is told to them, and delivers what a test says they told. */
final class RecordingSignals implements InstanceSignals {

    final List<String> told = new CopyOnWriteArrayList<>();
    private final Map<String, Consumer<String>> listeners = new HashMap<>();

    void hear(String topic, String message) {
        listeners.get(topic).accept(message);
    }

    @Override
    public void tell(String topic, String message) {
        told.add(message);
    }

    @Override
    public void hear(String topic, Consumer<String> listener) {
        listeners.put(topic, listener);
    }

    @Override
    public boolean hearing() {
        return true;
    }

    @Override
    public void onMissed(Runnable action) {
    }
}
