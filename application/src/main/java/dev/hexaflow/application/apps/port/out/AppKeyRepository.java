package dev.hexaflow.application.apps.port.out;

import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.List;
import java.util.Optional;

/** Keeps app API keys by the hash of the key. */
public interface AppKeyRepository {

    void add(AppKey key);

    Optional<AppKey> find(SecretHash hash);

    /** The app's keys, oldest first, each with when it was last used (null: never, or not since kept). */
    List<ListedKey> list(String appId);

    /**
     * Notes that the key was used at {@code at} (Unix seconds). The note may be written at most once a minute a
     * key, so that a busy key does not cost a write a request; a failed write is forgotten.
     */
    void used(SecretHash hash, long at);

    /** A key as listed: what it is, and when it was last used. */
    record ListedKey(AppKey key, Long lastUsedAt) {
    }

    /** Deletes the app's key; answers false when the app has no such key. */
    boolean delete(String appId, SecretHash hash);
}
