package dev.hexaflow.application.knowledge.port.out;

import dev.hexaflow.domain.knowledge.DatasetKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;

/** Keeps the Knowledge API's keys by the hash of the key. */
public interface DatasetKeyRepository {

    void add(DatasetKey key);

    Optional<DatasetKey> find(SecretHash hash);

    /** Deletes the key; answers false when there is no such key. */
    boolean delete(SecretHash hash);
}
