package dev.hexaflow.application.triggers;

import static dev.hexaflow.application.triggers.TriggerBed.cron;
import static dev.hexaflow.application.triggers.TriggerBed.epoch;
import static dev.hexaflow.application.triggers.TriggerBed.orderHook;
import static dev.hexaflow.application.triggers.TriggerBed.plugin;
import static dev.hexaflow.application.triggers.TriggerBed.workflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.triggers.port.in.ManageTriggersUseCase.TriggerView;
import dev.hexaflow.application.triggers.service.ManageTriggersService;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * What an operator sees and sets of an app's triggers: a schedule's next five fire times while it is on, a URL's
 * path, the switch (a schedule switched on goes on from now, with no catch-up), a schedule's missed-ticks policy,
 * a webhook's authentication and a new URL; what does not apply to the kind of trigger, or is not there, is
 * refused.
 */
class ManageTriggersServiceTest {

    private final TriggerBed bed = new TriggerBed();
    private final ManageTriggersService manage = bed.manage();
    private final String app = bed.importApp("v1", workflow(cron("sched", "0 9 * * *", "UTC"), orderHook("hook"),
            plugin("github")));

    @Test
    void theListShowsEachTriggerASchedulesNextFiveFiresAndTheOthersPaths() {
        List<TriggerView> views = manage.list(app);

        assertThat(views).extracting(view -> view.trigger().nodeId()).containsExactly("sched", "hook", "github");
        TriggerView schedule = views.get(0);
        assertThat(schedule.path()).isNull();
        assertThat(schedule.nextFires()).containsExactly(epoch("2026-03-02T09:00:00Z"),
                epoch("2026-03-03T09:00:00Z"), epoch("2026-03-04T09:00:00Z"), epoch("2026-03-05T09:00:00Z"),
                epoch("2026-03-06T09:00:00Z"));
        assertThat(views.get(1).path()).isEqualTo("/triggers/webhook/" + bed.trigger(app, "hook").code());
        assertThat(views.get(1).nextFires()).isEmpty();
        assertThat(views.get(2).path()).isEqualTo("/triggers/webhook/" + bed.trigger(app, "github").code());
    }

    @Test
    void aScheduleSwitchedOffShowsNoNextFires() {
        TriggerView off = manage.setEnabled(app, "sched", false);

        assertThat(off.trigger().enabled()).isFalse();
        assertThat(off.trigger().nextFireAt()).isNull();
        assertThat(off.nextFires()).isEmpty();
        assertThat(manage.get(app, "sched").nextFires()).isEmpty();
    }

    @Test
    void aScheduleSwitchedOnGoesOnFromNowWithoutCatchingUpTheTicksItWasOffFor() {
        manage.setEnabled(app, "sched", false);
        bed.clock.advance(Duration.ofHours(50)); // Wednesday 10:00

        TriggerView on = manage.setEnabled(app, "sched", true);

        assertThat(on.trigger().nextFireAt()).isEqualTo(epoch("2026-03-05T09:00:00Z"));
        assertThat(on.nextFires()).hasSize(5).first().isEqualTo(epoch("2026-03-05T09:00:00Z"));
        assertThat(bed.fireSchedules().fireDue()).isZero();
        assertThat(bed.started).isEmpty();
    }

    @Test
    void aPluginTriggerSwitchedOnIsBoundAndHasNoFireTimes() {
        TriggerView bound = manage.setEnabled(app, "github", true);

        assertThat(bound.trigger().enabled()).isTrue();
        assertThat(bound.nextFires()).isEmpty();
        assertThat(bed.trigger(app, "github").enabled()).isTrue();
    }

    @Test
    void theViewShowsTheTenNewestTicksNewestFirst() {
        bed.publish(app, "v2", workflow(cron("sched", "*/5 * * * *", "UTC")));
        for (int tick = 0; tick < 12; tick++) {
            bed.clock.advance(Duration.ofMinutes(5));
            bed.fireSchedules().fireDue();
        }

        List<Tick> ticks = manage.get(app, "sched").ticks();

        assertThat(ticks).hasSize(10).extracting(Tick::dueAt).isSortedAccordingTo((a, b) -> Long.compare(b, a))
                .first().isEqualTo(epoch("2026-03-02T09:00:00Z"));
    }

    @Test
    void aSchedulesMissedTicksPolicyIsKept() {
        TriggerView view = manage.setMissedTicks(app, "sched", MissedTicks.RUN_ONCE);

        assertThat(view.trigger().missedTicks()).isEqualTo(MissedTicks.RUN_ONCE);
        assertThat(bed.trigger(app, "sched").missedTicks()).isEqualTo(MissedTicks.RUN_ONCE);
    }

    @Test
    void aWebhookHasNoMissedTicksToSet() {
        assertRefused(() -> manage.setMissedTicks(app, "hook", MissedTicks.RUN_ONCE), ApiError.INVALID_PARAM);
        assertRefused(() -> manage.setMissedTicks(app, "github", MissedTicks.RUN_ONCE), ApiError.INVALID_PARAM);

        assertThat(bed.trigger(app, "hook").missedTicks()).isEqualTo(MissedTicks.SKIP);
    }

    @Test
    void aWebhooksAuthenticationIsKeptAndAScheduleHasNoUrlToAuthenticate() {
        TriggerView view = manage.setAuth(app, "hook", WebhookAuth.hmac(null, "sixteen-chars-ok"));

        assertThat(view.trigger().auth()).isEqualTo(WebhookAuth.hmac(null, "sixteen-chars-ok"));
        assertThat(bed.trigger(app, "hook").auth().kind()).isEqualTo(WebhookAuth.Kind.HMAC);
        assertRefused(() -> manage.setAuth(app, "sched", WebhookAuth.bearer("sixteen-chars-ok")),
                ApiError.INVALID_PARAM);
        assertThat(bed.trigger(app, "sched").auth()).isEqualTo(WebhookAuth.none());
    }

    @Test
    void aNewUrlChangesTheCodeAndTheOldOneFindsNothing() {
        Trigger before = bed.trigger(app, "hook");

        TriggerView view = manage.newUrl(app, "hook");

        String code = view.trigger().code();
        assertThat(code).hasSize(Trigger.CODE_LENGTH).isNotEqualTo(before.code());
        assertThat(view.path()).isEqualTo("/triggers/webhook/" + code);
        assertThat(bed.triggers.findByCode(before.code())).isEmpty();
        assertThat(bed.triggers.findByCode(code)).map(Trigger::id).contains(before.id());
        assertRefused(() -> manage.newUrl(app, "sched"), ApiError.INVALID_PARAM);
    }

    @Test
    void anUnknownAppOrNodeIsNotFound() {
        assertRefused(() -> manage.list("no-such-app"), ApiError.NOT_FOUND);
        assertRefused(() -> manage.get("no-such-app", "sched"), ApiError.NOT_FOUND);
        assertRefused(() -> manage.get(app, "no-such-node"), ApiError.NOT_FOUND);
        assertRefused(() -> manage.setEnabled(app, "end-sched", false), ApiError.NOT_FOUND);
        assertRefused(() -> manage.newUrl("no-such-app", "hook"), ApiError.NOT_FOUND);
    }

    @Test
    void anotherAppsTriggerIsNotFoundThroughThisApp() {
        String other = bed.importApp("other", workflow(orderHook("own-hook")));

        assertRefused(() -> manage.get(app, "own-hook"), ApiError.NOT_FOUND);
        assertThat(manage.list(other)).extracting(view -> view.trigger().nodeId()).containsExactly("own-hook");
    }

    private static void assertRefused(ThrowingCallable call, ApiError error) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class,
                refused -> assertThat(refused.error()).isEqualTo(error));
    }
}
