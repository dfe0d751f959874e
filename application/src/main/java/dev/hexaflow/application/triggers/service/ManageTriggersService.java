package dev.hexaflow.application.triggers.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.triggers.port.in.ManageTriggersUseCase;
import dev.hexaflow.application.triggers.port.out.CronCalendar;
import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The operator's view and switches of an app's triggers. */
public final class ManageTriggersService implements ManageTriggersUseCase {

    /** Where a webhook's (or bound plugin trigger's) URL starts, as in Dify. */
    public static final String WEBHOOK_PATH = "/triggers/webhook/";

    private static final int TICKS_SHOWN = 10;

    private final AppRepository apps;
    private final TriggerRepository triggers;
    private final CronCalendar calendar;
    private final SecretGenerator secrets;
    private final Clock clock;

    public ManageTriggersService(AppRepository apps, TriggerRepository triggers, CronCalendar calendar,
            SecretGenerator secrets, Clock clock) {
        this.apps = apps;
        this.triggers = triggers;
        this.calendar = calendar;
        this.secrets = secrets;
        this.clock = clock;
    }

    @Override
    public List<TriggerView> list(String appId) {
        requireApp(appId);
        return triggers.ofApp(appId).stream().map(this::view).toList();
    }

    @Override
    public TriggerView get(String appId, String nodeId) {
        return view(trigger(appId, nodeId));
    }

    @Override
    public TriggerView setEnabled(String appId, String nodeId, boolean enabled) {
        Trigger trigger = trigger(appId, nodeId);
        if (trigger.enabled() == enabled) {
            return view(trigger); // switching on what is on keeps its tick due
        }
        Long next = trigger.schedule() == null ? null
                : calendar.next(trigger.schedule(), clock.instant()).getEpochSecond();
        Trigger changed = trigger.withEnabled(enabled, next);
        triggers.save(changed);
        return view(changed);
    }

    @Override
    public TriggerView setMissedTicks(String appId, String nodeId, MissedTicks policy) {
        Trigger trigger = trigger(appId, nodeId);
        if (trigger.schedule() == null) {
            throw new ApiException(ApiError.INVALID_PARAM, "Only a schedule has missed ticks; " + nodeId + " is a "
                    + trigger.kind().triggeredFrom() + " trigger.");
        }
        Trigger changed = trigger.withMissedTicks(policy);
        triggers.save(changed);
        return view(changed);
    }

    @Override
    public TriggerView setAuth(String appId, String nodeId, WebhookAuth auth) {
        Trigger trigger = urlTrigger(appId, nodeId);
        Trigger changed = trigger.withAuth(auth);
        triggers.save(changed);
        return view(changed);
    }

    @Override
    public TriggerView newUrl(String appId, String nodeId) {
        Trigger changed = urlTrigger(appId, nodeId).withCode(secrets.newSecret(Trigger.CODE_LENGTH));
        triggers.save(changed);
        return view(changed);
    }

    private Trigger urlTrigger(String appId, String nodeId) {
        Trigger trigger = trigger(appId, nodeId);
        if (!trigger.kind().hasUrl()) {
            throw new ApiException(ApiError.INVALID_PARAM, "A schedule has no URL; " + nodeId + " is a schedule "
                    + "trigger.");
        }
        return trigger;
    }

    private Trigger trigger(String appId, String nodeId) {
        requireApp(appId);
        return triggers.find(appId, nodeId).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "The app's published workflow has no trigger " + nodeId + "."));
    }

    private void requireApp(String appId) {
        if (apps.find(appId).isEmpty()) {
            throw new ApiException(ApiError.NOT_FOUND, "App not found.");
        }
    }

    private TriggerView view(Trigger trigger) {
        List<Long> next = new ArrayList<>();
        if (trigger.enabled() && trigger.nextFireAt() != null) {
            next.add(trigger.nextFireAt());
            Instant after = Instant.ofEpochSecond(trigger.nextFireAt());
            while (next.size() < NEXT_FIRES) {
                after = calendar.next(trigger.schedule(), after);
                next.add(after.getEpochSecond());
            }
        }
        String path = trigger.kind().hasUrl() ? WEBHOOK_PATH + trigger.code() : null;
        return new TriggerView(trigger, path, next, triggers.ticks(trigger.id(), TICKS_SHOWN));
    }
}
