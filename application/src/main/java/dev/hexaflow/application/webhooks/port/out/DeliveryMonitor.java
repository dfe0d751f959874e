package dev.hexaflow.application.webhooks.port.out;

/**
 * Hears what came of each webhook delivery attempt, for metrics; it returns quickly and never fails a send.
 */
@FunctionalInterface
public interface DeliveryMonitor {

    DeliveryMonitor NONE = outcome -> { };

    void attempted(Outcome outcome);

    /** Delivered; failed with retries left (due again); or given up (the schedule ran out, or nothing to send). */
    enum Outcome {
        DELIVERED, FAILED_ATTEMPT, GIVEN_UP
    }
}
