package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import dev.hexaflow.domain.trigger.ScheduleSpec;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.TriggerKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Triggers and ticks in memory, for one process: a tick is claimed under the repository's lock. */
public final class InMemoryTriggerRepository implements TriggerRepository {

    private final Map<String, Trigger> triggers = new LinkedHashMap<>();
    private final Map<String, List<Tick>> ticks = new LinkedHashMap<>();

    @Override
    public synchronized List<Trigger> ofApp(String appId) {
        return triggers.values().stream().filter(trigger -> trigger.appId().equals(appId))
                .sorted(Comparator.comparingLong(Trigger::createdAt)).toList();
    }

    @Override
    public synchronized Optional<Trigger> find(String appId, String nodeId) {
        return triggers.values().stream().filter(trigger -> trigger.appId().equals(appId)
                && trigger.nodeId().equals(nodeId)).findFirst();
    }

    @Override
    public synchronized Optional<Trigger> findByCode(String code) {
        return triggers.values().stream().filter(trigger -> Objects.equals(trigger.code(), code)).findFirst();
    }

    @Override
    public synchronized void save(Trigger trigger) {
        triggers.put(trigger.id(), trigger);
    }

    @Override
    public synchronized void remove(String triggerId) {
        triggers.remove(triggerId);
        ticks.remove(triggerId);
    }

    @Override
    public synchronized void republish(String triggerId, String title, ScheduleSpec schedule, Long nextFireAt) {
        Trigger trigger = triggers.get(triggerId);
        if (trigger != null) {
            Long next = nextFireAt == null ? trigger.nextFireAt() : nextFireAt;
            triggers.put(triggerId, trigger.republished(title, schedule, next));
        }
    }

    @Override
    public synchronized List<Trigger> due(long now, int limit) {
        return triggers.values().stream().filter(trigger -> trigger.kind() == TriggerKind.SCHEDULE
                && trigger.enabled() && trigger.nextFireAt() != null && trigger.nextFireAt() <= now)
                .sorted(Comparator.comparingLong(Trigger::nextFireAt)).limit(limit).toList();
    }

    @Override
    public synchronized boolean claim(String triggerId, long dueAt, long nextAt, Tick.Outcome outcome, long firedAt) {
        Trigger trigger = triggers.get(triggerId);
        if (trigger == null || !trigger.enabled() || !Objects.equals(trigger.nextFireAt(), dueAt)) {
            return false;
        }
        triggers.put(triggerId, trigger.withEnabled(true, nextAt));
        List<Tick> kept = ticks.computeIfAbsent(triggerId, id -> new ArrayList<>());
        if (kept.stream().anyMatch(tick -> tick.dueAt() == dueAt)) {
            return false; // fired before: the schedule moves on, and this claim takes nothing
        }
        kept.add(new Tick(triggerId, dueAt, firedAt, outcome, null));
        kept.sort(Comparator.comparingLong(Tick::dueAt));
        while (kept.size() > KEPT_TICKS) {
            kept.remove(0);
        }
        return true;
    }

    @Override
    public synchronized void ranTick(String triggerId, long dueAt, String runId) {
        replaceTick(triggerId, dueAt, tick -> new Tick(triggerId, dueAt, tick.firedAt(), tick.outcome(), runId));
    }

    @Override
    public synchronized void refusedTick(String triggerId, long dueAt) {
        replaceTick(triggerId, dueAt, tick -> new Tick(triggerId, dueAt, tick.firedAt(), Tick.Outcome.REFUSED,
                tick.runId()));
    }

    private void replaceTick(String triggerId, long dueAt, java.util.function.UnaryOperator<Tick> change) {
        List<Tick> kept = ticks.getOrDefault(triggerId, List.of());
        for (int i = 0; i < kept.size(); i++) {
            if (kept.get(i).dueAt() == dueAt) {
                kept.set(i, change.apply(kept.get(i)));
            }
        }
    }

    @Override
    public synchronized List<Tick> ticks(String triggerId, int limit) {
        List<Tick> newestFirst = new ArrayList<>(ticks.getOrDefault(triggerId, List.of()));
        newestFirst.sort(Comparator.comparingLong(Tick::dueAt).reversed());
        return newestFirst.stream().limit(limit).toList();
    }
}
