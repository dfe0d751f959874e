package dev.hexaflow.application.triggers.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.trigger.MissedTicks;
import dev.hexaflow.domain.trigger.Tick;
import dev.hexaflow.domain.trigger.Trigger;
import dev.hexaflow.domain.trigger.WebhookAuth;
import java.util.List;

/**
 * What an operator sees and sets of an app's triggers (admin API, command line, console): each trigger with its
 * URL or its next fire times, switched on and off, a schedule's policy for missed ticks, a webhook's
 * authentication and a new URL.
 *
 * @throws ApiException NOT_FOUND for an unknown app or a node that is not one of its triggers
 */
public interface ManageTriggersUseCase {

    /** How many of a schedule's next fire times are shown. */
    int NEXT_FIRES = 5;

    List<TriggerView> list(String appId);

    TriggerView get(String appId, String nodeId);

    /** On from now (a schedule's next tick is the first after now), or off. */
    TriggerView setEnabled(String appId, String nodeId, boolean enabled);

    TriggerView setMissedTicks(String appId, String nodeId, MissedTicks policy);

    /** @throws ApiException INVALID_PARAM for a schedule, which has no URL */
    TriggerView setAuth(String appId, String nodeId, WebhookAuth auth);

    /** A new URL code; the old URL stops at once. */
    TriggerView newUrl(String appId, String nodeId);

    /**
     * A trigger as shown: its URL's path (webhooks and plugin triggers), a schedule's next fire times (Unix seconds;
     * none while it is off) and its latest ticks.
     */
    record TriggerView(Trigger trigger, String path, List<Long> nextFires, List<Tick> ticks) {
        public TriggerView {
            nextFires = List.copyOf(nextFires);
            ticks = List.copyOf(ticks);
        }
    }
}
