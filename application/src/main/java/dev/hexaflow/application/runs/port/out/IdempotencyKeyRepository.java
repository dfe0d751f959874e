package dev.hexaflow.application.runs.port.out;

import java.util.Optional;

/**
 * Keeps which run an idempotency key started, per app and end user: of two claims of one key, exactly one is
 * kept, whatever their timing, and a claim older than the window no longer counts.
 */
public interface IdempotencyKeyRepository {

    /**
     * Keeps the claim unless the same app, user and key has one made at or after {@code notBefore}; answers that
     * one then (the claim was not kept), and empty when this one was kept. An older claim of the key is replaced.
     */
    Optional<KeyedRun> claim(KeyedRun claim, long notBefore);

    /** The claim of the app's user's key made at or after {@code notBefore}; empty for none. */
    Optional<KeyedRun> find(String appId, String user, String key, long notBefore);

    /**
     * Deletes this claim of its key, if the key still names its run (a claim made since is left alone); answers
     * whether it deleted it.
     */
    boolean release(KeyedRun claim);

    /** Deletes the claims made before {@code createdBefore}; answers how many it deleted. */
    int prune(long createdBefore);

    /**
     * A key's claim: the run (and its task) that the request with this fingerprint started, when (Unix seconds).
     */
    record KeyedRun(String appId, String user, String key, String fingerprint, String runId, String taskId,
            long createdAt) {
        public KeyedRun {
            if (appId == null || user == null || key == null || fingerprint == null || runId == null
                    || taskId == null) {
                throw new IllegalArgumentException("a keyed run names its app, user, key, fingerprint, run and task");
            }
        }
    }
}
