package dev.hexaflow.application.triggers.port.out;

import dev.hexaflow.domain.trigger.ScheduleSpec;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import java.util.List;
import java.util.Optional;

/** Keeps the apps' triggers and the ticks their schedules fired; shared by every instance on the store. */
public interface TriggerRepository {

    /** The ticks kept of each schedule, the newest: an older one is dropped as a new one is recorded. */
    int KEPT_TICKS = 100;

    /** The app's triggers, in the order they were first published. */
    List<Trigger> ofApp(String appId);

    Optional<Trigger> find(String appId, String nodeId);

    /** The trigger whose URL ends with this code, whichever app it is of. */
    Optional<Trigger> findByCode(String code);

    /** Adds the trigger, or replaces the one with its id. */
    void save(Trigger trigger);

    void remove(String triggerId);

    /**
     * The trigger's node as published again: its title and schedule, and, when {@code nextFireAt} is not null and the
     * trigger is on, its next fire time. Only these change, so that an operator's change made meanwhile (a switch, a
     * new URL, an authentication) is kept.
     */
    void republish(String triggerId, String title, ScheduleSpec schedule, Long nextFireAt);

    /** The schedules that are on and due at {@code now} (Unix seconds), the most overdue first, at most {@code limit}. */
    List<Trigger> due(long now, int limit);

    /**
     * Takes the tick due at {@code dueAt} for this instance: the schedule's next fire time moves from {@code dueAt}
     * to {@code nextAt}, and the tick is recorded with its outcome, in one transaction. False when another instance
     * took it first (or the schedule changed meanwhile): then nothing changed.
     */
    boolean claim(String triggerId, long dueAt, long nextAt, Tick.Outcome outcome, long firedAt);

    /** The run a claimed tick started. */
    void ranTick(String triggerId, long dueAt, String runId);

    /** A claimed tick whose run was refused (too many runs, no published version, ...). */
    void refusedTick(String triggerId, long dueAt);

    /** The ticks the schedule fired, newest first, at most {@code limit}. */
    List<Tick> ticks(String triggerId, int limit);
}
