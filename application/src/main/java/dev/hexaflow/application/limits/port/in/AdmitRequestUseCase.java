package dev.hexaflow.application.limits.port.in;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;

/**
 * Request rates: each request counted against the token bucket of its key, its end user or its campus key, in
 * memory. A request past the rate is refused with the time until the bucket has a token again.
 */
public interface AdmitRequestUseCase {

    /** A /v1 request with the app's key {@code keyId}, under the app's rate per key. */
    Admission byKey(String appId, String keyId);

    /** A start (a run, a chat turn, a completion) for the app's end user {@code user}, under its rate per end user. */
    Admission byEndUser(String appId, String user);

    /** A campus feed request with a granted key (its hash, hex), under the server's rate per campus key. */
    Admission byCampusKey(String keyHash);

    /**
     * Whether the request may go on: admitted, or refused for {@code retryAfterMillis} with a message naming the
     * limit.
     */
    record Admission(long retryAfterMillis, String message) {

        public static final Admission ADMITTED = new Admission(0, null);

        public boolean admitted() {
            return retryAfterMillis == 0;
        }

        /** Whole seconds to wait, rounded up, at least 1: a {@code Retry-After}. */
        public long retryAfterSeconds() {
            return Math.max(1, (retryAfterMillis + 999) / 1000);
        }

        /** @throws ApiException TOO_MANY_REQUESTS, with its Retry-After, when refused */
        public void orRefuse() {
            if (!admitted()) {
                throw new ApiException(ApiError.TOO_MANY_REQUESTS, message, retryAfterSeconds());
            }
        }
    }
}
