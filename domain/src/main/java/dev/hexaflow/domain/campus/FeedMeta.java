package dev.hexaflow.domain.campus;

import java.util.Optional;

/**
 * The meta block of every feed answer.
 *
 * @param requests  the key's usage count; -1 without a key, 0 for a key that is not known
 * @param timestamp server time in Unix seconds
 * @param method    the method asked for, or empty when the path named none
 */
public record FeedMeta(long requests, long timestamp, FeedStatus status, Optional<FeedMethod> method) {

    public static final long NO_KEY = -1;
    public static final long UNKNOWN_KEY = 0;

    public FeedMeta {
        if (status == null) {
            throw new IllegalArgumentException("status must not be null");
        }
        if (method == null) {
            throw new IllegalArgumentException("method must not be null; use Optional.empty()");
        }
        if (requests < NO_KEY) {
            throw new IllegalArgumentException("requests must be -1 or more, was " + requests);
        }
    }

    public Optional<Integer> methodId() {
        return method.map(FeedMethod::id);
    }

    public Optional<Double> version() {
        return method.flatMap(FeedMethod::version);
    }
}
