package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * Campus keys in the {@code campus_key} table, with their usage counted in memory and committed in groups.
 *
 * <p>A key once read stays in memory with its count; a use adds one to that count (so concurrent uses of one key
 * each get their own number, with no lock held across a write) and queues the increment for a {@link
 * GroupCommitWriter}, which adds up every increment waiting and commits them in one transaction. With {@code
 * keptBeforeAnswer}, a use waits for the commit that holds it before its count is answered, so no count a client
 * has seen is lost to a crash; otherwise it answers at once and a crash loses at most the increments of the last
 * group not yet committed. Either way, {@link #close()} commits every increment queued. This process must be the
 * only writer of the counts while it runs.
 */
public final class JdbiCampusKeyRepository implements CampusKeyRepository, AutoCloseable {

    /** A key as this process knows it: its count so far and whether it is banned. */
    private static final class Known {
        final AtomicLong requests;
        volatile boolean banned;

        Known(long requests, boolean banned) {
            this.requests = new AtomicLong(requests);
            this.banned = banned;
        }
    }

    private final Jdbi jdbi;
    private final boolean keptBeforeAnswer;
    private final Map<String, Known> known = new ConcurrentHashMap<>();
    private final GroupCommitWriter<String> usage;

    /** Counts committed before they are answered. */
    public JdbiCampusKeyRepository(Jdbi jdbi) {
        this(jdbi, true);
    }

    public JdbiCampusKeyRepository(Jdbi jdbi, boolean keptBeforeAnswer) {
        this(jdbi, keptBeforeAnswer, WriteGate.OPEN);
    }

    /** @param gate refuses usage counts at once while the store cannot keep them */
    public JdbiCampusKeyRepository(Jdbi jdbi, boolean keptBeforeAnswer, WriteGate gate) {
        this.jdbi = jdbi;
        this.keptBeforeAnswer = keptBeforeAnswer;
        this.usage = new GroupCommitWriter<>(jdbi, gate, "hexaflow-campus-usage", JdbiCampusKeyRepository::addUses);
    }

    @Override
    public Optional<CampusKey> find(SecretHash hash) {
        return known(hash).map(key -> new CampusKey(hash, key.requests.get(), key.banned));
    }

    private Optional<Known> known(SecretHash hash) {
        Known key = known.get(hash.hex());
        if (key != null) {
            return Optional.of(key);
        }
        Optional<Known> read = jdbi.withHandle(handle -> handle
                .createQuery("SELECT requests, banned FROM campus_key WHERE key_hash = :hash")
                .bind("hash", hash.hex())
                .map((rs, ctx) -> new Known(rs.getLong("requests"), rs.getBoolean("banned")))
                .findOne());
        // Two first reads of one key may race: the first one kept wins, so every use counts on one number.
        return read.map(fresh -> known.computeIfAbsent(hash.hex(), hex -> fresh));
    }

    @Override
    public void add(CampusKey key) {
        jdbi.useHandle(handle -> handle
                .createUpdate("INSERT INTO campus_key (key_hash, requests, banned) VALUES (:hash, :requests, :banned)")
                .bind("hash", key.hash().hex())
                .bind("requests", key.requests())
                .bind("banned", key.banned())
                .execute());
        known.put(key.hash().hex(), new Known(key.requests(), key.banned()));
    }

    @Override
    public long recordUse(SecretHash hash) {
        Known key = known(hash).orElseThrow(() -> new IllegalStateException("no campus key " + hash));
        long count = key.requests.incrementAndGet();
        var kept = usage.submit(hash.hex());
        if (keptBeforeAnswer) {
            kept.join();
        }
        return count;
    }

    @Override
    public boolean ban(SecretHash hash) {
        boolean banned = jdbi.withHandle(handle -> handle
                .createUpdate("UPDATE campus_key SET banned = TRUE WHERE key_hash = :hash")
                .bind("hash", hash.hex())
                .execute()) > 0;
        if (banned) {
            known(hash).ifPresent(key -> key.banned = true);
        }
        return banned;
    }

    /** One statement per key in the group, adding up its uses. */
    private static void addUses(GroupCommitWriter.Statements statements, List<String> uses) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        uses.forEach(hex -> counts.merge(hex, 1L, Long::sum));
        PreparedStatement add = statements.prepared(
                "UPDATE campus_key SET requests = requests + ? WHERE key_hash = ?");
        for (Map.Entry<String, Long> count : counts.entrySet()) {
            add.setLong(1, count.getValue());
            add.setString(2, count.getKey());
            add.addBatch();
        }
        add.executeBatch();
    }

    /** Commits every use queued so far, then stops counting: uses after this fail. */
    @Override
    public void close() {
        usage.close();
    }
}
