package dev.hexaflow.application.webhook.port.out;

import dev.hexaflow.domain.webhook.Delivery;
import dev.hexaflow.domain.webhook.DeliveryAttempt;
import dev.hexaflow.domain.webhook.DeliveryState;
import java.util.List;

/**
 * Keeps deliveries of runs' ends and their attempts, durably; several instances may share it, so that a due
 * delivery is claimed by one of them before it is sent.
 */
public interface DeliveryRepository {

    /** Keeps a new delivery. */
    void add(Delivery delivery);

    /** Forgets a delivery whose run never started. */
    void discard(String id);

    /**
     * Replaces a delivery by its next state, with the attempt that led there (null for none), and releases its
     * claim, in one transaction; only if it is still in state {@code from}. Answers whether it was replaced.
     */
    boolean move(Delivery next, DeliveryState from, DeliveryAttempt attempt);

    /** The deliveries whose run has not been seen ending, oldest first, at most {@code limit}. */
    List<Delivery> awaitingRun(int limit);

    /**
     * Claims the pending deliveries due at {@code now} that nobody holds (no claim, or one that ran out), until
     * {@code claimUntil}, and answers them; each is claimed by one caller only, however many ask at once.
     */
    List<Delivery> claimDue(long now, long claimUntil, int limit);

    /** An app's deliveries with their attempts, newest first. */
    DeliveryPage list(String appId, int page, int limit);

    record DeliveryPage(int page, int limit, long total, boolean hasMore, List<DeliveryRecord> items) {
    }

    /** A delivery with its attempts, first first. */
    record DeliveryRecord(Delivery delivery, List<DeliveryAttempt> attempts) {
    }
}
