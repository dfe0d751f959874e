package dev.hexaflow.workflow.engine;

/** Tells long work that its run is stopping, so it can end early (a cancelled call, a killed process). */
public interface StopSignal {

    StopSignal NEVER = new StopSignal() {
        @Override
        public boolean isStopped() {
            return false;
        }

        @Override
        public AutoCloseable onStop(Runnable action) {
            return () -> { };
        }
    };

    boolean isStopped();

    /** Runs {@code action} when the run stops (at once if it has); close the handle when the work is over. */
    AutoCloseable onStop(Runnable action);
}
