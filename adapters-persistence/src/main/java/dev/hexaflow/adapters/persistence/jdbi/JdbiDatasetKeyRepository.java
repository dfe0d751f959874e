package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.domain.knowledge.DatasetKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** Dataset keys in {@code dataset_key}, by the key's hash; the keys in use are kept in memory as well. */
public final class JdbiDatasetKeyRepository implements DatasetKeyRepository {

    private final Jdbi jdbi;
    private final ReadCache<SecretHash, DatasetKey> cache;

    public JdbiDatasetKeyRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.cache = new ReadCache<>(jdbi, "dataset_key", 1_000);
    }

    @Override
    public void add(DatasetKey key) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO dataset_key (key_hash, created_at) "
                + "VALUES (:hash, :created_at)").bind("hash", key.hash().hex()).bind("created_at", key.createdAt())
                .execute());
    }

    @Override
    public Optional<DatasetKey> find(SecretHash hash) {
        return cache.get(hash, this::read);
    }

    private Optional<DatasetKey> read(SecretHash hash) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM dataset_key WHERE key_hash = :hash")
                .bind("hash", hash.hex()).map((rs, ctx) -> new DatasetKey(new SecretHash(rs.getString("key_hash")),
                        rs.getLong("created_at"))).findOne());
    }

    @Override
    public boolean delete(SecretHash hash) {
        boolean deleted = jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM dataset_key "
                + "WHERE key_hash = :hash").bind("hash", hash.hex()).execute()) > 0;
        if (deleted) {
            cache.removed(hash);
        }
        return deleted;
    }
}
