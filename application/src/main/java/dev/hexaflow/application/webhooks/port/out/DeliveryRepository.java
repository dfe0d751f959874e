package dev.hexaflow.application.webhooks.port.out;

import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps deliveries of runs' ends and pauses and their attempts, durably; several instances may share it, so that a due
 * delivery is claimed by one sender before it is sent, and only the holder of its claim records what came of it.
 */
public interface DeliveryRepository {

    /** Keeps a new delivery. */
    void add(Delivery delivery);

    /** Forgets a delivery whose run never started. */
    void discard(String id);

    /**
     * Replaces an unclaimed delivery (one waiting for its run) by its next state, with the attempt that led there
     * (null for none), in one transaction; only if it is still in state {@code from}. Answers whether it was
     * replaced.
     */
    boolean move(Delivery next, DeliveryState from, DeliveryAttempt attempt);

    /**
     * The deliveries whose run has not been seen ending, oldest first, from the one after {@code after} (null:
     * from the oldest), at most {@code limit}: a caller pages through them all by passing the last it got.
     */
    List<Delivery> awaitingRun(Delivery after, int limit);

    /**
     * Claims the oldest pending delivery due at {@code now} that nobody holds (no claim, or one that ran out) and
     * whose app and receiver {@code passOver} does not name, until {@code until}; each is claimed by one caller
     * only, however many ask at once. Empty when none is due.
     */
    Optional<Claim> claimNext(long now, long until, PassOver passOver);

    /**
     * The apps and receivers ({@link dev.hexaflow.domain.webhook.CallbackUrl#receiver()}) whose deliveries a claim
     * passes over: those that hold as many senders as they may.
     */
    record PassOver(Set<String> apps, Set<String> receivers) {

        public static final PassOver NONE = new PassOver(Set.of(), Set.of());

        public PassOver {
            apps = Set.copyOf(apps);
            receivers = Set.copyOf(receivers);
        }

        public static PassOver apps(Set<String> apps) {
            return new PassOver(apps, Set.of());
        }

        public static PassOver receivers(Set<String> receivers) {
            return new PassOver(Set.of(), receivers);
        }
    }

    /**
     * Moves a claim's end to {@code until} if it is still held (the claimed delivery still pending and claimed by
     * no one since); empty when it is not: its claim ran out and another sender has it, or it has ended.
     */
    Optional<Claim> extend(Claim claim, long until);

    /**
     * Replaces a claimed delivery by its next state, with the attempt that led there (null for none), and releases
     * the claim, in one transaction; only while the claim is still held, so that a sender whose claim ran out
     * changes nothing. Answers whether it was replaced.
     */
    boolean settle(Claim claim, Delivery next, DeliveryAttempt attempt);

    /** An app's deliveries with their attempts, newest first. */
    DeliveryPage list(String appId, int page, int limit);

    /** The delivery of a run's end that was kept as the run started; empty for a run without a webhook. */
    Optional<Delivery> completionOf(String runId);

    /** A delivery by its id, whatever its app; empty for an unknown one. */
    Optional<Delivery> find(String id);

    /**
     * Deletes the deliveries that ended (delivered or failed) and were made before {@code createdBefore} (Unix
     * milliseconds, as a delivery's times are), with their attempts; answers how many.
     */
    int pruneEnded(long createdBefore);

    /**
     * A pending delivery held by one sender until {@code until}. The end is the claim's token: a later claim of the
     * same delivery can only be taken once this one ran out, so it always ends later.
     */
    record Claim(Delivery delivery, long until) {

        public Claim {
            if (delivery == null) {
                throw new IllegalArgumentException("a claim needs its delivery");
            }
        }
    }

    record DeliveryPage(int page, int limit, long total, boolean hasMore, List<DeliveryRecord> items) {
    }

    /** A delivery with its attempts, first first. */
    record DeliveryRecord(Delivery delivery, List<DeliveryAttempt> attempts) {
    }
}
