package dev.hexaflow.app.wiring;

import dev.hexaflow.app.adapters.Slf4jRunMonitor;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.application.runs.port.out.RunMonitor;
import java.util.ArrayList;
import java.util.List;

/**
 * What lets an operator see the server at work: each part (log lines, metrics, traces) watches the runs through
 * one {@link RunMonitor}, made here from the settings and closed with the server.
 */
public final class Observability implements AutoCloseable {

    private final List<RunMonitor> monitors = new ArrayList<>();
    private final List<AutoCloseable> parts = new ArrayList<>();

    private Observability() {
    }

    /** The parts the settings turn on; log lines are always on (a failed run is one warning). */
    public static Observability of(Configuration config) {
        Observability observability = new Observability();
        observability.monitors.add(new Slf4jRunMonitor());
        return observability;
    }

    /** Nothing watched: for servers made in tests that look at none of it. */
    public static Observability none() {
        return new Observability();
    }

    /** Every part's watcher of runs, as one. */
    public RunMonitor runs() {
        return RunMonitor.all(monitors);
    }

    @Override
    public void close() {
        for (AutoCloseable part : parts) {
            try {
                part.close();
            } catch (Exception e) {
                // Closing: a part that fails to close leaves nothing to keep.
            }
        }
    }
}
