package dev.hexaflow.application.triggers;

import static dev.hexaflow.application.triggers.TriggerBed.START;
import static dev.hexaflow.application.triggers.TriggerBed.cron;
import static dev.hexaflow.application.triggers.TriggerBed.epoch;
import static dev.hexaflow.application.triggers.TriggerBed.orderHook;
import static dev.hexaflow.application.triggers.TriggerBed.plugin;
import static dev.hexaflow.application.triggers.TriggerBed.visual;
import static dev.hexaflow.application.triggers.TriggerBed.webhook;
import static dev.hexaflow.application.triggers.TriggerBed.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.hexaflow.application.EchoWorkflow;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.ScheduleSpec;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.TriggerKind;
import dev.hexaflow.domain.trigger.WebhookAuth;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Publishing keeps the triggers in step with the app's workflow: one trigger per trigger node, a URL code for
 * webhooks and plugin triggers, a schedule's first fire time from the clock; a node that stays keeps what the
 * operator set; a node that goes loses its trigger; and a schedule Dify would refuse is refused before anything is
 * kept, naming its node.
 */
class TriggerSyncTest {

    private final TriggerBed bed = new TriggerBed();

    private String threeTriggers() {
        return bed.importApp("v1", workflow(cron("sched", "0 9 * * *", "UTC"), orderHook("hook"), plugin("github")));
    }

    @Test
    void publishingAWorkflowWithThreeTriggersKeepsOneTriggerForEachNode() {
        String app = threeTriggers();

        assertThat(bed.triggers.ofApp(app)).extracting(Trigger::nodeId, Trigger::kind).containsExactly(
                tuple("sched", TriggerKind.SCHEDULE),
                tuple("hook", TriggerKind.WEBHOOK),
                tuple("github", TriggerKind.PLUGIN));
        assertThat(bed.triggers.ofApp(app)).allSatisfy(trigger -> {
            assertThat(trigger.missedTicks()).isEqualTo(MissedTicks.SKIP);
            assertThat(trigger.auth()).isEqualTo(WebhookAuth.none());
            assertThat(trigger.createdAt()).isEqualTo(START.getEpochSecond());
        });
    }

    @Test
    void aScheduleIsOnFromItsFirstTickAfterThePublicationAndHasNoUrl() {
        String app = threeTriggers();

        Trigger schedule = bed.trigger(app, "sched");
        assertThat(schedule.enabled()).isTrue();
        assertThat(schedule.code()).isNull();
        assertThat(schedule.title()).isEqualTo("Every sched");
        assertThat(schedule.schedule()).isEqualTo(new ScheduleSpec("0 9 * * *", ZoneId.of("UTC")));
        assertThat(schedule.nextFireAt()).isEqualTo(epoch("2026-03-02T09:00:00Z"));
    }

    @Test
    void aWebhookIsOnAndAPluginTriggerOffUntilBoundEachWithAnUrlCodeOfItsOwn() {
        String app = threeTriggers();

        Trigger hook = bed.trigger(app, "hook");
        Trigger github = bed.trigger(app, "github");
        assertThat(hook.enabled()).isTrue();
        assertThat(github.enabled()).as("a plugin trigger runs once an operator binds it").isFalse();
        assertThat(List.of(hook.code(), github.code())).allSatisfy(code -> assertThat(code).hasSize(32))
                .doesNotHaveDuplicates();
        assertThat(hook.nextFireAt()).isNull();
        assertThat(github.nextFireAt()).isNull();
        assertThat(bed.triggers.findByCode(hook.code())).contains(hook);
    }

    @Test
    void aVisualScheduleFiresAtTheTimeItsFrequencyMakes() {
        String app = bed.importApp("weekly", workflow(visual("weekly", "weekly", Map.of("time", "9:05 AM",
                "weekdays", List.of("fri", "wed")))));

        Trigger schedule = bed.trigger(app, "weekly");
        assertThat(schedule.schedule().cron()).isEqualTo("5 9 * * 3,5");
        assertThat(schedule.nextFireAt()).as("Wednesday, after Monday's publication")
                .isEqualTo(epoch("2026-03-04T09:05:00Z"));
    }

    @Test
    void aWorkflowWithoutTriggersKeepsNone() {
        String app = bed.importApp("echo", EchoWorkflow.named("Echo"));

        assertThat(bed.triggers.ofApp(app)).isEmpty();
    }

    @Test
    void republishingKeepsTheCodeSwitchAuthenticationAndPolicyOfEachNodeThatStays() {
        String app = threeTriggers();
        Trigger hook = bed.trigger(app, "hook");
        bed.manage().setAuth(app, "hook", WebhookAuth.bearer("a-secret-of-sixteen"));
        bed.manage().setEnabled(app, "github", true);
        bed.manage().setMissedTicks(app, "sched", MissedTicks.RUN_ONCE);
        bed.clock.advance(Duration.ofMinutes(5));

        bed.publish(app, "v2", workflow(cron("sched", "0 9 * * *", "UTC"), webhook("hook", Map.of("title",
                "Renamed")), plugin("github")));

        Trigger kept = bed.trigger(app, "hook");
        assertThat(kept.id()).isEqualTo(hook.id());
        assertThat(kept.code()).isEqualTo(hook.code());
        assertThat(kept.title()).isEqualTo("Renamed");
        assertThat(kept.auth()).isEqualTo(WebhookAuth.bearer("a-secret-of-sixteen"));
        assertThat(bed.trigger(app, "github").enabled()).isTrue();
        assertThat(bed.trigger(app, "sched").missedTicks()).isEqualTo(MissedTicks.RUN_ONCE);
        assertThat(bed.triggers.ofApp(app)).hasSize(3);
    }

    @Test
    void republishingAnUnchangedScheduleKeepsItsNextFireSoThatADueTickStillFires() {
        String app = threeTriggers();
        bed.clock.advance(Duration.ofMinutes(90)); // 09:30: the 09:00 tick is due and not fired yet

        bed.publish(app, "v2", workflow(cron("sched", "0 9 * * *", "UTC"), orderHook("hook")));

        assertThat(bed.trigger(app, "sched").nextFireAt()).isEqualTo(epoch("2026-03-02T09:00:00Z"));
    }

    @Test
    void aChangedCronOrTimeZoneMovesTheNextFireToTheNewSchedulesFirstTickAfterNow() {
        String app = threeTriggers();
        bed.clock.advance(Duration.ofMinutes(90));

        bed.publish(app, "v2", workflow(cron("sched", "30 10 * * *", "UTC")));
        assertThat(bed.trigger(app, "sched").nextFireAt()).isEqualTo(epoch("2026-03-02T10:30:00Z"));

        bed.publish(app, "v3", workflow(cron("sched", "30 10 * * *", "Asia/Tokyo")));
        assertThat(bed.trigger(app, "sched").schedule().zone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
        assertThat(bed.trigger(app, "sched").nextFireAt()).as("10:30 in Tokyo is 01:30 UTC")
                .isEqualTo(epoch("2026-03-03T01:30:00Z"));
    }

    @Test
    void aScheduleSwitchedOffStaysOffWithNoNextFireWhenItsCronChanges() {
        String app = threeTriggers();
        bed.manage().setEnabled(app, "sched", false);

        bed.publish(app, "v2", workflow(cron("sched", "*/5 * * * *", "UTC")));

        Trigger schedule = bed.trigger(app, "sched");
        assertThat(schedule.enabled()).isFalse();
        assertThat(schedule.nextFireAt()).isNull();
        assertThat(schedule.schedule().cron()).isEqualTo("*/5 * * * *");
    }

    @Test
    void aNodeRemovedLosesItsTriggerAndItsUrlStopsAnswering() {
        String app = threeTriggers();
        String pluginCode = bed.trigger(app, "github").code();

        bed.publish(app, "v2", workflow(orderHook("hook")));

        assertThat(bed.triggers.ofApp(app)).extracting(Trigger::nodeId).containsExactly("hook");
        assertThat(bed.triggers.findByCode(pluginCode)).isEmpty();
        assertThat(bed.triggers.due(Long.MAX_VALUE, 10)).isEmpty();
    }

    @Test
    void aNodeWhoseKindChangedIsANewTriggerWithANewCode() {
        String app = threeTriggers();
        Trigger hook = bed.trigger(app, "hook");

        bed.publish(app, "v2", workflow(plugin("hook")));

        Trigger now = bed.trigger(app, "hook");
        assertThat(now.kind()).isEqualTo(TriggerKind.PLUGIN);
        assertThat(now.id()).isNotEqualTo(hook.id());
        assertThat(now.code()).isNotEqualTo(hook.code());
        assertThat(now.enabled()).isFalse();
        assertThat(bed.triggers.findByCode(hook.code())).isEmpty();
    }

    @Test
    void aScheduleDifyWouldRefuseIsRefusedNamingItsNodeAndNothingIsKept() {
        assertRefused(cron("sched", "61 * * * *", "UTC"), "Invalid cron expression '61 * * * *'");
        assertRefused(cron("sched", "0 9 * *", "UTC"), "Cron expression must have exactly 5 fields");
        assertRefused(cron("sched", "0 9 * * *", "Mars/Olympus"), "Invalid timezone: 'Mars/Olympus'");
        assertRefused(visual("sched", "weekly", Map.of("time", "9:00 AM", "weekdays", List.of())),
                "Weekdays are required for weekly schedules");
        assertRefused(visual("sched", "daily", Map.of("time", "25:00 PM")),
                "Invalid hour: 25. Must be between 1 and 12");

        assertThat(bed.apps.list()).isEmpty();
    }

    @Test
    void aRefusedNewVersionLeavesTheTriggersOfTheVersionBefore() {
        String app = threeTriggers();
        List<Trigger> before = bed.triggers.ofApp(app);

        assertThatThrownBy(() -> bed.publish(app, "v2", workflow(cron("sched", "0 9 * * *", "Mars/Olympus"))))
                .isInstanceOf(InvalidWorkflowException.class);

        assertThat(bed.triggers.ofApp(app)).isEqualTo(before);
    }

    @Test
    void checkNamesEveryTriggerNodeThatIsWrong() {
        InvalidWorkflowException refused = catchThrowableOfType(
                InvalidWorkflowException.class, () -> bed.sync.check(workflow(cron("sched", "0 0 32 * *", "UTC"),
                        webhook("hook", Map.of("headers", List.of(Map.of("name", "X-N", "type", "number")))))));

        assertThat(refused.problems()).extracting(WorkflowProblem::nodeId).containsExactly("sched", "hook");
        assertThat(refused.problems().get(0).message()).contains("Value 32 not in range [1, 31]");
        assertThat(refused.problems().get(1).message())
                .isEqualTo("headers[0].type Unsupported webhook header parameter type: number");
    }

    private void assertRefused(Node schedule, String message) {
        assertThatThrownBy(() -> bed.importApp("bad " + message, workflow(schedule)))
                .isInstanceOfSatisfying(InvalidWorkflowException.class, refused -> assertThat(refused.problems())
                        .singleElement().satisfies(problem -> {
                            assertThat(problem.nodeId()).isEqualTo("sched");
                            assertThat(problem.message()).startsWith(message);
                        }));
    }
}
