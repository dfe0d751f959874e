package dev.hexaflow.adapters.nodes.fakes;

import dev.hexaflow.workflow.engine.StopSignal;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/** A stop signal a test pulls, as a user's stop does to a run: the actions registered run at once, once. */
public final class StopSwitch implements StopSignal {

    private final AtomicBoolean stopped = new AtomicBoolean();
    private final List<Runnable> actions = new CopyOnWriteArrayList<>();

    @Override
    public boolean isStopped() {
        return stopped.get();
    }

    @Override
    public AutoCloseable onStop(Runnable action) {
        actions.add(action);
        if (stopped.get()) {
            action.run();
        }
        return () -> actions.remove(action);
    }

    public void pull() {
        if (stopped.compareAndSet(false, true)) {
            actions.forEach(Runnable::run);
        }
    }
}
