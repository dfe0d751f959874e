package dev.hexaflow.domain.webhook;

/**
 * The POST of a run's final detail, or of one of its pauses, to a callback URL, kept until the receiver takes it or
 * the schedule gives up. Times are Unix milliseconds.
 *
 * @param attempts how many times it was sent so far
 * @param nextAttemptAt when it is due next (meaningless once it ended)
 * @param lastStatus what the receiver answered last time, null when it did not answer or was never asked
 * @param lastError why the last attempt failed, null when none failed or it was delivered
 * @param dueSince when its run ended and it became due (null while the run goes on): the schedule counts from it
 * @param kind whether it tells the run's end or one of its pauses
 * @param payload the body a pause's delivery posts, as UTF-8 JSON; null for a completion, rendered as it is sent
 */
public record Delivery(String id, String appId, String runId, CallbackUrl url, DeliveryState state, int attempts,
        long nextAttemptAt, Integer lastStatus, String lastError, long createdAt, Long dueSince, DeliveryKind kind,
        String payload) {

    public Delivery {
        if (id == null || id.isBlank() || appId == null || appId.isBlank() || runId == null || runId.isBlank()) {
            throw new IllegalArgumentException("a delivery needs its id, its app's and its run's");
        }
        if (url == null || state == null) {
            throw new IllegalArgumentException("a delivery needs its url and its state");
        }
        if (attempts < 0) {
            throw new IllegalArgumentException("attempts must not be negative");
        }
        if (kind == null || (kind == DeliveryKind.PAUSED) != (payload != null)) {
            throw new IllegalArgumentException("a delivery needs its kind, and a payload exactly when it is a pause's");
        }
    }

    /** A delivery kept as its run starts: it waits for the run's end. */
    public static Delivery awaiting(String id, String appId, String runId, CallbackUrl url, long now) {
        return new Delivery(id, appId, runId, url, DeliveryState.AWAITING_RUN, 0, now, null, null, now, null,
                DeliveryKind.COMPLETION, null);
    }

    /**
     * A delivery of a run's pause, kept once the pause is: due at once, with the body it posts. It never waits for
     * the run; each pause of a run is a delivery of its own.
     */
    public static Delivery ofPause(String id, String appId, String runId, CallbackUrl url, String body, long now) {
        if (body == null) {
            throw new IllegalArgumentException("a pause's delivery needs its body");
        }
        return new Delivery(id, appId, runId, url, DeliveryState.PENDING, 0, now, null, null, now, now,
                DeliveryKind.PAUSED, body);
    }

    /** The run has ended: due at once. */
    public Delivery due(long now) {
        return moveTo(DeliveryState.PENDING, attempts, now, lastStatus, lastError, now);
    }

    /** An attempt the receiver took (a 2xx in time). */
    public Delivery delivered(DeliveryAttempt attempt) {
        return moveTo(DeliveryState.DELIVERED, attempt.number(), nextAttemptAt, attempt.statusCode(), null,
                dueSince);
    }

    /** An attempt that failed: due again after the schedule's wait, or failed for good once its day is over. */
    public Delivery failed(DeliveryAttempt attempt, RetrySchedule schedule) {
        long next = attempt.attemptedAt() + attempt.elapsedMillis()
                + schedule.delayAfter(attempt.number()).toMillis();
        long since = dueSince == null ? createdAt : dueSince;
        boolean over = next > since + schedule.giveUpAfter().toMillis();
        return moveTo(over ? DeliveryState.FAILED : DeliveryState.PENDING, attempt.number(), next,
                attempt.statusCode(), attempt.error(), dueSince);
    }

    /** An attempt the outbound policy refused: no retry reaches a forbidden address, so it fails at once. */
    public Delivery refused(DeliveryAttempt attempt) {
        return moveTo(DeliveryState.FAILED, attempt.number(), nextAttemptAt, null, attempt.error(), dueSince);
    }

    /** Given up without an attempt (its run is not kept, so there is nothing to send). */
    public Delivery abandoned(String reason) {
        return moveTo(DeliveryState.FAILED, attempts, nextAttemptAt, lastStatus, reason, dueSince);
    }

    /**
     * An ended delivery that an operator sends again: due at once, with a new day of retries from now; its
     * attempts go on being numbered after the earlier ones. The one way out of an ended state, and only by hand.
     */
    public Delivery redelivered(long now) {
        if (!state.ended()) {
            throw new IllegalStateException("a delivery " + state.wireName() + " is not over: it is sent anyway");
        }
        return new Delivery(id, appId, runId, url, DeliveryState.PENDING, attempts, now, lastStatus, lastError,
                createdAt, now, kind, payload);
    }

    private Delivery moveTo(DeliveryState next, int tries, long nextAt, Integer status, String error, Long since) {
        if (!state.canBecome(next)) {
            throw new IllegalStateException("a delivery " + state.wireName() + " cannot become " + next.wireName());
        }
        return new Delivery(id, appId, runId, url, next, tries, nextAt, status, error, createdAt, since, kind,
                payload);
    }
}
