package dev.hexaflow.application.campus.port.out;

import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;

/** Keeps campus API keys by the hash of the key, with their usage counts. */
public interface CampusKeyRepository {

    Optional<CampusKey> find(SecretHash hash);

    /** Stores a new key; a key with the same hash must not exist yet. */
    void add(CampusKey key);

    /** Adds one to the key's usage count atomically and answers the new count. */
    long recordUse(SecretHash hash);

    /** Marks the key banned; answers false when no such key exists. */
    boolean ban(SecretHash hash);
}
