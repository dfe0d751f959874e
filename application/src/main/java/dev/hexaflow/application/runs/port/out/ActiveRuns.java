package dev.hexaflow.application.runs.port.out;

/**
 * The runs under way of each app and each of its end users, held under the app's limits on runs at once (the limits
 * context holds them): a run is admitted before it starts and gives its place back once it ends (or pauses for a
 * person).
 */
public interface ActiveRuns {

    /** Admits every run and counts none: what a server without the limits context does. */
    ActiveRuns NONE = (appId, user) -> Admission.NONE;

    /**
     * Takes a place for a run of the app's end user {@code user}, from memory only.
     *
     * @throws dev.hexaflow.application.common.ApiException TOO_MANY_REQUESTS when the app, or this end user, has
     *         as many runs under way (here and, as of the last exchange, on the other instances) as its limit
     */
    Admission admit(String appId, String user);

    /** A run's place; giving it back more than once gives it back once. */
    interface Admission {

        /** A place that was never counted. */
        Admission NONE = () -> { };

        void release();
    }
}
