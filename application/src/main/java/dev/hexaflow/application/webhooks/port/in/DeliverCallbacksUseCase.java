package dev.hexaflow.application.webhooks.port.in;

/** Sends the webhook deliveries that are due, and finds those whose run ended unheard (a restart). */
public interface DeliverCallbacksUseCase {

    /**
     * Claims as many of the deliveries due now as there are free senders, at most half of them for one app, and
     * sends each; answers how many it claimed.
     */
    int deliverDue();

    /**
     * Makes due the deliveries whose run has ended though nobody said so (the server stopped between the two),
     * and gives up those whose run was never kept; answers how many it moved.
     */
    int sweep();

    /** How long a delivery that ended (delivered or failed) stays listed, attempts and all. */
    java.time.Duration ENDED_KEPT = java.time.Duration.ofDays(30);

    /** Deletes the deliveries that ended more than {@link #ENDED_KEPT} after their making; answers how many. */
    int prune();
}
