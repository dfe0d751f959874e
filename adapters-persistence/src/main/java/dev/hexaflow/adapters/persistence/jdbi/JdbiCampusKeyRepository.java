package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** Campus keys in the {@code campus_key} table. */
public final class JdbiCampusKeyRepository implements CampusKeyRepository {

    private final Jdbi jdbi;

    public JdbiCampusKeyRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public Optional<CampusKey> find(SecretHash hash) {
        return jdbi.withHandle(handle -> handle
                .createQuery("SELECT key_hash, requests, banned FROM campus_key WHERE key_hash = :hash")
                .bind("hash", hash.hex())
                .map((rs, ctx) -> new CampusKey(
                        new SecretHash(rs.getString("key_hash")), rs.getLong("requests"), rs.getBoolean("banned")))
                .findOne());
    }

    @Override
    public void add(CampusKey key) {
        jdbi.useHandle(handle -> handle
                .createUpdate("INSERT INTO campus_key (key_hash, requests, banned) VALUES (:hash, :requests, :banned)")
                .bind("hash", key.hash().hex())
                .bind("requests", key.requests())
                .bind("banned", key.banned())
                .execute());
    }

    @Override
    public long recordUse(SecretHash hash) {
        // One statement increments and reads back, so concurrent calls each see their own count.
        return jdbi.withHandle(handle -> handle
                .createQuery("SELECT requests FROM FINAL TABLE "
                        + "(UPDATE campus_key SET requests = requests + 1 WHERE key_hash = :hash)")
                .bind("hash", hash.hex())
                .mapTo(Long.class)
                .findOne()
                .orElseThrow(() -> new IllegalStateException("no campus key " + hash)));
    }

    @Override
    public boolean ban(SecretHash hash) {
        return jdbi.withHandle(handle -> handle
                .createUpdate("UPDATE campus_key SET banned = TRUE WHERE key_hash = :hash")
                .bind("hash", hash.hex())
                .execute()) > 0;
    }
}
