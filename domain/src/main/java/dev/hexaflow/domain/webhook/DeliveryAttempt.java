package dev.hexaflow.domain.webhook;

/**
 * One POST of a run's end to its callback: when (Unix milliseconds), what the receiver answered (null when it
 * did not answer), why it counts as failed (null when it succeeded), and how long it took.
 */
public record DeliveryAttempt(int number, long attemptedAt, Integer statusCode, String error, long elapsedMillis) {

    public DeliveryAttempt {
        if (number < 1) {
            throw new IllegalArgumentException("an attempt's number starts at 1, was " + number);
        }
        if (elapsedMillis < 0) {
            throw new IllegalArgumentException("an attempt's elapsedMillis must not be negative");
        }
    }

    public boolean succeeded() {
        return error == null;
    }
}
