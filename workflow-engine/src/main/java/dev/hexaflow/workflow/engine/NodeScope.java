package dev.hexaflow.workflow.engine;

/**
 * Told on the thread that does a node's work, around each attempt of it: lets an adapter make what it keeps for
 * that node execution current on the thread (a trace's span, so that the node's outbound calls name it). The
 * engine's threads carry nothing of the caller's, so this is the one way such state reaches a node's calls.
 */
@FunctionalInterface
public interface NodeScope {

    /** Nothing made current: the engine's default. */
    NodeScope NONE = (runId, executionId) -> Entered.NOTHING;

    /** Called just before the attempt, on its thread; the answer is closed on the same thread once it is over. */
    Entered enter(String runId, String executionId);

    /** What {@link #enter} made current, undone by {@link #close}, which never throws. */
    @FunctionalInterface
    interface Entered extends AutoCloseable {

        Entered NOTHING = () -> { };

        @Override
        void close();
    }
}
