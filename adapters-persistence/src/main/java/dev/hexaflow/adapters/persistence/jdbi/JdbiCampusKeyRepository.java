package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.domain.campus.CampusKey;
import dev.hexaflow.domain.secret.SecretHash;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * Campus keys in the {@code campus_key} table, with their usage counted in memory and committed in groups.
 *
 * <p>A key once read stays in memory with its count; a use adds one to that count (so concurrent uses of one key
 * each get their own number, with no lock held and nothing written in the way of the answer) and to the key's
 * increments not yet kept. Every {@link #FLUSH_INTERVAL}, the increments gathered are committed in one
 * transaction, a statement per key that was used. So a clean {@link #close()} loses nothing, and a crash loses at
 * most the uses of the last interval and the commit under way. While the store refuses writes (a full disk), a
 * use is refused at once; increments whose commit failed are kept for the next one. This process must be the
 * only writer of the counts while it runs.
 */
public final class JdbiCampusKeyRepository implements CampusKeyRepository, AutoCloseable {

    /** How long a use may go uncommitted: what a crash can lose at most, beside the commit under way. */
    public static final Duration FLUSH_INTERVAL = Duration.ofMillis(10);

    /** A key as this process knows it: its count so far, the uses not yet kept, and whether it is banned. */
    private static final class Known {
        final String hex;
        final AtomicLong requests;
        final AtomicLong unkept = new AtomicLong();
        volatile boolean banned;

        Known(String hex, long requests, boolean banned) {
            this.hex = hex;
            this.requests = new AtomicLong(requests);
            this.banned = banned;
        }
    }

    private final Jdbi jdbi;
    private final WriteGate gate;
    private final Map<String, Known> known = new ConcurrentHashMap<>();
    /** Keys with uses not yet handed to the writer. */
    private final Set<Known> used = ConcurrentHashMap.newKeySet();
    private final GroupCommitWriter<Map<String, Long>> usage;
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "hexaflow-campus-usage-flush");
        thread.setDaemon(true);
        return thread;
    });

    public JdbiCampusKeyRepository(Jdbi jdbi) {
        this(jdbi, WriteGate.OPEN);
    }

    /** @param gate refuses uses at once while the store cannot keep them */
    public JdbiCampusKeyRepository(Jdbi jdbi, WriteGate gate) {
        this.jdbi = jdbi;
        this.gate = gate;
        this.usage = new GroupCommitWriter<>(jdbi, gate, "hexaflow-campus-usage", JdbiCampusKeyRepository::addUses);
        long every = FLUSH_INTERVAL.toMillis();
        flusher.scheduleWithFixedDelay(this::flush, every, every, TimeUnit.MILLISECONDS);
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
                .map((rs, ctx) -> new Known(hash.hex(), rs.getLong("requests"), rs.getBoolean("banned")))
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
        known.put(key.hash().hex(), new Known(key.hash().hex(), key.requests(), key.banned()));
    }

    @Override
    public long recordUse(SecretHash hash) {
        gate.check();
        Known key = known(hash).orElseThrow(() -> new IllegalStateException("no campus key " + hash));
        long count = key.requests.incrementAndGet();
        key.unkept.incrementAndGet();
        used.add(key);
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

    /**
     * Hands the uses gathered since the last flush to the writer as one change; uses whose commit fails go back
     * to their keys for the next flush. A use counted while this runs is either taken now or left for the next.
     */
    private void flush() {
        Map<String, Long> increments = new LinkedHashMap<>();
        for (Iterator<Known> keys = used.iterator(); keys.hasNext();) {
            Known key = keys.next();
            keys.remove();
            long uses = key.unkept.getAndSet(0);
            if (uses > 0) {
                increments.put(key.hex, uses);
            }
        }
        if (increments.isEmpty()) {
            return;
        }
        usage.submit(increments).whenComplete((kept, failure) -> {
            if (failure != null) {
                increments.forEach((hex, uses) -> {
                    Known key = known.get(hex);
                    key.unkept.addAndGet(uses);
                    used.add(key);
                });
            }
        });
    }

    /** One statement per key, adding up its uses over every change in the group. */
    private static void addUses(GroupCommitWriter.Statements statements, List<Map<String, Long>> changes)
            throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        changes.forEach(change -> change.forEach((hex, uses) -> counts.merge(hex, uses, Long::sum)));
        PreparedStatement add = statements.prepared(
                "UPDATE campus_key SET requests = requests + ? WHERE key_hash = ?");
        for (Map.Entry<String, Long> count : counts.entrySet()) {
            add.setLong(1, count.getValue());
            add.setString(2, count.getKey());
            add.addBatch();
        }
        add.executeBatch();
    }

    /** Commits every use counted so far, then stops counting. */
    @Override
    public void close() {
        flusher.shutdown();
        try {
            flusher.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
        usage.close();
    }
}
