package dev.hexaflow.domain.trigger;

/**
 * One trigger node of an app's published workflow, as the store keeps it between runs: whether it is on, the code
 * of its URL (a webhook's or a bound plugin trigger's), its schedule and the next time it fires, and what the
 * operator set (the policy for missed ticks, a webhook's authentication). Publishing keeps these settings for a
 * node that stays.
 *
 * @param code        the unguessable last part of its URL, or null for a schedule
 * @param schedule    a schedule's cron and time zone, or null
 * @param nextFireAt  when a schedule fires next (Unix seconds), or null when it is off
 * @param createdAt   Unix seconds
 */
public record Trigger(String id, String appId, String nodeId, TriggerKind kind, String title, boolean enabled,
        String code, ScheduleSpec schedule, Long nextFireAt, MissedTicks missedTicks, WebhookAuth auth,
        long createdAt) {

    /** Characters of a URL's code: 32 lowercase letters and digits from a cryptographic source, about 165 bits. */
    public static final int CODE_LENGTH = 32;

    /** Whether {@code text} has the shape of a URL's code: 32 letters and digits, nothing else. */
    public static boolean isCode(String text) {
        return text != null && text.length() == CODE_LENGTH && text.chars().allMatch(Character::isLetterOrDigit)
                && text.chars().allMatch(c -> c < 128);
    }

    public Trigger {
        if (id == null || appId == null || nodeId == null || kind == null) {
            throw new IllegalArgumentException("a trigger has an id, an app, a node and a kind");
        }
        if (kind == TriggerKind.SCHEDULE && schedule == null) {
            throw new IllegalArgumentException("a schedule trigger has its schedule");
        }
        if (kind.hasUrl() && (code == null || code.isEmpty())) {
            throw new IllegalArgumentException("a " + kind.triggeredFrom() + " trigger has the code of its URL");
        }
        title = title == null ? "" : title;
        missedTicks = missedTicks == null ? MissedTicks.SKIP : missedTicks;
        auth = auth == null ? WebhookAuth.none() : auth;
    }

    public Trigger withEnabled(boolean on, Long next) {
        return new Trigger(id, appId, nodeId, kind, title, on, code, schedule, on ? next : null, missedTicks, auth,
                createdAt);
    }

    public Trigger withMissedTicks(MissedTicks policy) {
        return new Trigger(id, appId, nodeId, kind, title, enabled, code, schedule, nextFireAt, policy, auth,
                createdAt);
    }

    public Trigger withAuth(WebhookAuth newAuth) {
        if (!kind.hasUrl()) {
            throw new IllegalArgumentException("a schedule has no URL to authenticate");
        }
        return new Trigger(id, appId, nodeId, kind, title, enabled, code, schedule, nextFireAt, missedTicks, newAuth,
                createdAt);
    }

    public Trigger withCode(String newCode) {
        return new Trigger(id, appId, nodeId, kind, title, enabled, newCode, schedule, nextFireAt, missedTicks, auth,
                createdAt);
    }

    /** The node as published again: its title and schedule as the new version has them, the operator's settings kept. */
    public Trigger republished(String newTitle, ScheduleSpec newSchedule, Long next) {
        return new Trigger(id, appId, nodeId, kind, newTitle, enabled, code, newSchedule, enabled ? next : null,
                missedTicks, auth, createdAt);
    }
}
