package dev.hexaflow.workflow.engine;

import dev.hexaflow.domain.workflow.FormAnswer;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.RunEvent;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/** What all nodes of one run share: counters, the stop flag and its reason, the listener, the end outputs. */
final class RunState {

    /** Why a run stopped before its graph was done. */
    enum StopKind { USER, FAILURE }

    record Stop(StopKind kind, String message) {
    }

    final String runId;
    final Supplier<String> ids;
    final Clock clock;
    final EngineSettings settings;
    final Executor executor;
    private final RunListener listener;
    final AtomicInteger steps = new AtomicInteger();
    final AtomicInteger nodeIndex = new AtomicInteger();
    final AtomicLong tokens = new AtomicLong();
    final AtomicInteger exceptions = new AtomicInteger();
    private final AtomicReference<Stop> stop = new AtomicReference<>();
    private final Set<Runnable> cancellations = ConcurrentHashMap.newKeySet();
    private final Map<String, Object> outputs = new LinkedHashMap<>();
    /** The chat turn of a chatflow's run; null for a workflow app's. */
    final ChatTurn chat;
    final Map<String, Object> scoped = new ConcurrentHashMap<>();
    /** In a resumed run, the answers of the forms it resumes with, by node id. */
    final Map<String, FormAnswer> answers = new ConcurrentHashMap<>();
    /** In a resumed run, the answered nodes' executions as they paused, taken by each when it runs again. */
    final Map<String, PausedRun.WaitingNode> resumed = new ConcurrentHashMap<>();
    /** The nodes waiting for a person, those of an earlier pause still unanswered included, in the order they paused. */
    final Map<String, PausedRun.WaitingNode> waiting = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
    /** The forms this leg of the run sent out. */
    final java.util.List<HumanInputForm> sentForms = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Told around each node attempt, on its thread. */
    final NodeScope nodeScope;

    RunState(String runId, Supplier<String> ids, Clock clock, EngineSettings settings, Executor executor,
            RunListener listener, ChatTurn chat, NodeScope nodeScope) {
        this.chat = chat;
        this.nodeScope = nodeScope;
        this.runId = runId;
        this.ids = ids;
        this.clock = clock;
        this.settings = settings;
        this.executor = executor;
        this.listener = listener;
    }

    /** Events go out one at a time, so that listeners see a single order even from parallel branches. */
    synchronized void emit(RunEvent event) {
        listener.on(event);
    }

    long now() {
        return clock.instant().getEpochSecond();
    }

    boolean stopped() {
        return stop.get() != null;
    }

    Stop stop() {
        return stop.get();
    }

    /** Stops the run for the first reason given, and cancels what is in flight; later reasons are ignored. */
    void stop(StopKind kind, String message) {
        if (stop.compareAndSet(null, new Stop(kind, message))) {
            for (Runnable cancel : cancellations) {
                try {
                    cancel.run();
                } catch (RuntimeException e) {
                    // A cancel that fails leaves its call to time out; the run is stopping either way.
                }
            }
        }
    }

    /** Registers work to cancel when the run stops; closing the handle unregisters it. */
    AutoCloseable onStop(Runnable cancel) {
        cancellations.add(cancel);
        if (stopped()) {
            cancel.run();
        }
        return () -> cancellations.remove(cancel);
    }

    synchronized void mergeOutputs(Map<String, Object> endOutputs) {
        outputs.putAll(endOutputs);
    }

    /**
     * An answer node finished (at any depth): its text goes after the answers before it in the run's
     * {@code answer} output, and its other outputs (files) replace theirs, as Dify's engine keeps them.
     */
    synchronized void appendAnswer(Map<String, Object> answerOutputs) {
        answerOutputs.forEach((name, value) -> outputs.put(name, name.equals("answer")
                ? String.valueOf(outputs.getOrDefault("answer", "")) + (value == null ? "" : value) : value));
    }

    synchronized Map<String, Object> outputs() {
        return new LinkedHashMap<>(outputs);
    }

    /** Counts a node run; past the run's most steps, stops the run failed and answers false. */
    boolean countStep() {
        if (steps.incrementAndGet() <= settings.maxSteps()) {
            return true;
        }
        stop(StopKind.FAILURE, "Max steps " + settings.maxSteps() + " reached.");
        return false;
    }

    /** Waits out a retry's interval; answers false when the run stopped meanwhile. */
    boolean sleepUnlessStopped(java.time.Duration interval) {
        long until = System.currentTimeMillis() + interval.toMillis();
        while (!stopped()) {
            long left = until - System.currentTimeMillis();
            if (left <= 0) {
                return true;
            }
            try {
                Thread.sleep(Math.min(left, 50));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
