package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** App keys in {@code app_key}, by the key's hash; the keys in use are kept in memory as well. */
public final class JdbiAppKeyRepository implements AppKeyRepository {

    private final Jdbi jdbi;
    private final ReadCache<SecretHash, AppKey> cache;

    public JdbiAppKeyRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.cache = new ReadCache<>(jdbi, "app_key", 10_000);
    }

    @Override
    public void add(AppKey key) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO app_key (key_hash, app_id, created_at) "
                + "VALUES (:hash, :app_id, :created_at)").bind("hash", key.hash().hex()).bind("app_id", key.appId())
                .bind("created_at", key.createdAt()).execute());
    }

    @Override
    public Optional<AppKey> find(SecretHash hash) {
        return cache.get(hash, this::read);
    }

    private Optional<AppKey> read(SecretHash hash) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_key WHERE key_hash = :hash")
                .bind("hash", hash.hex()).map((rs, ctx) -> new AppKey(new SecretHash(rs.getString("key_hash")),
                        rs.getString("app_id"), rs.getLong("created_at"))).findOne());
    }

    @Override
    public boolean delete(String appId, SecretHash hash) {
        boolean deleted = jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM app_key WHERE key_hash = :hash "
                + "AND app_id = :app_id").bind("hash", hash.hex()).bind("app_id", appId).execute()) > 0;
        if (deleted) {
            cache.removed(hash);
        }
        return deleted;
    }
}
