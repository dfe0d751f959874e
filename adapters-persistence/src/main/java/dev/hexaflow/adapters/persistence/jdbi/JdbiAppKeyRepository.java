package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.apps.port.out.AppKeyRepository;
import dev.hexaflow.domain.app.AppKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jdbi.v3.core.Jdbi;

/**
 * App keys in {@code app_key}, by the key's hash; the keys in use are kept in memory as well. A key's last use is
 * written at most once a minute per key and instance, so that a busy key does not cost a write a request.
 */
public final class JdbiAppKeyRepository implements AppKeyRepository {

    private static final long USE_NOTED_EVERY = 60;

    private final Jdbi jdbi;
    private final ReadCache<SecretHash, AppKey> cache;
    private final ConcurrentMap<SecretHash, Long> usesWritten = new ConcurrentHashMap<>();

    public JdbiAppKeyRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.cache = new ReadCache<>(jdbi, "app_key", 10_000);
    }

    @Override
    public void add(AppKey key) {
        jdbi.useHandle(handle -> handle.createUpdate("INSERT INTO app_key (key_hash, app_id, created_at, hint) "
                + "VALUES (:hash, :app_id, :created_at, :hint)").bind("hash", key.hash().hex())
                .bind("app_id", key.appId()).bind("created_at", key.createdAt()).bind("hint", key.hint()).execute());
    }

    @Override
    public Optional<AppKey> find(SecretHash hash) {
        return cache.get(hash, this::read);
    }

    private Optional<AppKey> read(SecretHash hash) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_key WHERE key_hash = :hash")
                .bind("hash", hash.hex()).map((rs, ctx) -> key(rs)).findOne());
    }

    private static AppKey key(ResultSet rs) throws SQLException {
        return new AppKey(new SecretHash(rs.getString("key_hash")), rs.getString("app_id"), rs.getLong("created_at"),
                rs.getString("hint"));
    }

    @Override
    public List<ListedKey> list(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_key WHERE app_id = :app_id "
                + "ORDER BY created_at, key_hash").bind("app_id", appId)
                .map((rs, ctx) -> new ListedKey(key(rs), rs.getObject("last_used_at", Long.class))).list());
    }

    @Override
    public void used(SecretHash hash, long at) {
        Long written = usesWritten.get(hash);
        if (written != null && at - written < USE_NOTED_EVERY) {
            return;
        }
        usesWritten.put(hash, at);
        try {
            jdbi.useHandle(handle -> handle.createUpdate("UPDATE app_key SET last_used_at = :at WHERE key_hash = "
                    + ":hash AND (last_used_at IS NULL OR last_used_at < :at)").bind("at", at)
                    .bind("hash", hash.hex()).execute());
        } catch (RuntimeException e) {
            // A note of use is worth no refused request: the next minute's use writes it again.
            usesWritten.remove(hash, at);
        }
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
