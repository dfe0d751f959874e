package dev.hexaflow.application.triggers.service;

import dev.hexaflow.application.apps.port.out.PublicationHook;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.triggers.port.out.CronCalendar;
import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.ScheduleSpec;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.TriggerKind;
import dev.hexaflow.domain.trigger.WebhookAuth;
import dev.hexaflow.domain.trigger.WebhookSpec;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Keeps the triggers of each app in step with its published workflow: a schedule's cron and a webhook's settings
 * are checked before the version is kept; once it is, each trigger node has its row (a new one gets its URL code
 * and, for a schedule, its first fire time; one that stays keeps the operator's settings), and the rows of nodes
 * that are gone are removed. A plugin trigger starts off: it runs once an operator binds it (switches it on).
 */
public final class TriggerSync implements PublicationHook {

    private final TriggerRepository triggers;
    private final CronCalendar calendar;
    private final SecretGenerator secrets;
    private final Clock clock;
    private final Supplier<String> ids;

    public TriggerSync(TriggerRepository triggers, CronCalendar calendar, SecretGenerator secrets, Clock clock,
            Supplier<String> ids) {
        this.triggers = triggers;
        this.calendar = calendar;
        this.secrets = secrets;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public void check(Workflow workflow) {
        List<WorkflowProblem> problems = new ArrayList<>();
        for (Node node : workflow.graph().triggers()) {
            try {
                if (node.type() == TriggerKind.SCHEDULE.nodeType()) {
                    calendar.next(ScheduleSpec.of(node.data()), clock.instant());
                } else if (node.type() == TriggerKind.WEBHOOK.nodeType()) {
                    WebhookSpec.of(node.data());
                }
            } catch (IllegalArgumentException | InvalidNodeDataException e) {
                problems.add(WorkflowProblem.of(node, e.getMessage()));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidWorkflowException(problems);
        }
    }

    @Override
    public void published(String appId, Workflow workflow) {
        Set<String> published = new HashSet<>();
        for (Node node : workflow.graph().triggers()) {
            TriggerKind kind = TriggerKind.of(node.type()).orElseThrow();
            published.add(node.id());
            ScheduleSpec schedule = kind == TriggerKind.SCHEDULE ? ScheduleSpec.of(node.data()) : null;
            Long next = schedule == null ? null : calendar.next(schedule, clock.instant()).getEpochSecond();
            Optional<Trigger> kept = triggers.find(appId, node.id()).filter(trigger -> trigger.kind() == kind);
            if (kept.isPresent()) {
                Trigger same = kept.get();
                boolean scheduleChanged = schedule != null && !schedule.equals(same.schedule());
                triggers.republish(same.id(), node.title(), schedule, scheduleChanged || same.nextFireAt() == null
                        ? next : null);
            } else {
                triggers.find(appId, node.id()).ifPresent(other -> triggers.remove(other.id()));
                triggers.save(new Trigger(ids.get(), appId, node.id(), kind, node.title(), kind != TriggerKind.PLUGIN,
                        kind.hasUrl() ? newCode() : null, schedule, kind == TriggerKind.PLUGIN ? null : next,
                        MissedTicks.SKIP, WebhookAuth.none(), clock.instant().getEpochSecond()));
            }
        }
        for (Trigger trigger : triggers.ofApp(appId)) {
            if (!published.contains(trigger.nodeId())) {
                triggers.remove(trigger.id());
            }
        }
    }

    String newCode() {
        return secrets.newSecret(Trigger.CODE_LENGTH);
    }
}
