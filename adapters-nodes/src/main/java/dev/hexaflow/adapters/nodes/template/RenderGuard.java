package dev.hexaflow.adapters.nodes.template;

import dev.hexaflow.workflow.engine.StopSignal;
import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * The bounds of the render running on this thread: checked before every node Jinjava renders and at every loop
 * iteration, so that a render ends at once when its run stops or it has looped too often. Once broken it stays
 * broken: Jinjava turns some exceptions into template errors and renders on, and every later node then fails at
 * once, so the render unwinds quickly whatever catches the first throw.
 */
final class RenderGuard {

    private static final ThreadLocal<RenderGuard> CURRENT = new ThreadLocal<>();

    private final StopSignal stop;
    private final int maxLoopIterations;
    private long loopIterations;
    private Broken broken;

    private RenderGuard(StopSignal stop, int maxLoopIterations) {
        this.stop = stop;
        this.maxLoopIterations = maxLoopIterations;
    }

    /** Starts guarding the render that this thread is about to run; close to stop. */
    static RenderGuard open(StopSignal stop, int maxLoopIterations) {
        RenderGuard guard = new RenderGuard(stop, maxLoopIterations);
        CURRENT.set(guard);
        return guard;
    }

    static Optional<RenderGuard> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    void close() {
        CURRENT.remove();
    }

    /** Why the render was ended, if it was. */
    Optional<Broken> broken() {
        return Optional.ofNullable(broken);
    }

    void check() {
        if (broken != null) {
            throw broken;
        }
        if (stop.isStopped()) {
            throw broken = new Broken(true, "the run was stopped");
        }
    }

    void countIteration() {
        check();
        if (++loopIterations > maxLoopIterations) {
            throw broken = new Broken(false, "The template ran more than " + maxLoopIterations
                    + " loop iterations");
        }
    }

    /**
     * The collection a {@code for} loop walks, counting each step; the same elements in the same order and the same
     * size (for {@code loop.length}) as Jinjava would walk. Other kinds of value (a single object, a string) are
     * walked as they are: their body's nodes are still checked.
     */
    Object counted(Object collection, boolean iterateOverMapKeys) {
        if (collection instanceof Map<?, ?> map) {
            return new Counted(iterateOverMapKeys ? map.keySet() : map.values());
        }
        if (collection instanceof Collection<?> items) {
            return new Counted(items);
        }
        return collection;
    }

    /** The reason a render ended early: its run stopped, or it broke its loop limit. */
    static final class Broken extends RuntimeException {
        private final boolean stopped;

        private Broken(boolean stopped, String message) {
            super(message, null, false, false);
            this.stopped = stopped;
        }

        boolean stopped() {
            return stopped;
        }
    }

    private final class Counted extends AbstractCollection<Object> {
        private final Collection<?> items;

        Counted(Collection<?> items) {
            this.items = items;
        }

        @Override
        public int size() {
            return items.size();
        }

        @Override
        public Iterator<Object> iterator() {
            Iterator<?> walk = items.iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return walk.hasNext();
                }

                @Override
                public Object next() {
                    countIteration();
                    return walk.next();
                }
            };
        }
    }
}
