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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;

/**
 * Campus keys in the {@code campus_key} table, with their usage counted in one of two ways, chosen by whether
 * other instances may write the same database ({@link SqlDialect#sharedByInstances()}).
 *
 * <p>Where this process is the only writer (H2), the usage is counted in memory and committed in groups. A key
 * once read stays in memory with its count; a use adds one to that count (so concurrent uses of one key each get
 * their own number, with no lock held and nothing written in the way of the answer) and to the key's increments
 * not yet kept. Every {@link #FLUSH_INTERVAL}, the increments gathered are committed in one transaction, a
 * statement per key that was used. So a clean {@link #close()} loses nothing, and a crash loses at most the uses
 * of the last interval and the commit under way. While the store refuses writes (a full disk), a use is refused at
 * once; increments whose commit failed are kept for the next one.
 *
 * <p>Where several instances share the database (PostgreSQL), a count in one process's memory would be wrong as
 * soon as another process counted, and a ban made by another would go unseen: there a key is read from its row
 * every time, and a use is one statement that adds one to the row and answers the new count. The row's lock makes
 * concurrent uses from every instance take turns, so each gets its own number and the total is exact; the price
 * is a round trip and a commit per use.
 */
public final class JdbiCampusKeyRepository implements CampusKeyRepository, AutoCloseable {

    /** How long a use may go uncommitted, where uses are counted in memory: what a crash can lose at most. */
    public static final Duration FLUSH_INTERVAL = Duration.ofMillis(10);

    /** Where the usage of a key is counted, and what of a key is known beside its row. */
    private interface Usage {
        Optional<CampusKey> find(SecretHash hash);

        /** Adds one use of a key that exists and answers its new count. */
        long recordUse(SecretHash hash);

        /** {@code key} was just inserted. */
        void added(CampusKey key);

        /** The row of {@code hash} was just banned. */
        void banned(SecretHash hash);

        /** Commits every use counted so far, and waits until they are. */
        void keepNow();

        /** Keeps every use counted so far. */
        void close();
    }

    private final Jdbi jdbi;
    private final WriteGate gate;
    private final Usage usage;

    public JdbiCampusKeyRepository(Jdbi jdbi) {
        this(jdbi, WriteGate.OPEN);
    }

    /** @param gate refuses uses at once while the store cannot keep them */
    public JdbiCampusKeyRepository(Jdbi jdbi, WriteGate gate) {
        this.jdbi = jdbi;
        this.gate = gate;
        this.usage = SqlDialect.of(jdbi).sharedByInstances() ? new CountedInTheRow() : new CountedInMemory();
    }

    @Override
    public Optional<CampusKey> find(SecretHash hash) {
        return usage.find(hash);
    }

    @Override
    public void add(CampusKey key) {
        jdbi.useHandle(handle -> handle
                .createUpdate("INSERT INTO campus_key (key_hash, requests, banned) VALUES (:hash, :requests, :banned)")
                .bind("hash", key.hash().hex())
                .bind("requests", key.requests())
                .bind("banned", key.banned())
                .execute());
        usage.added(key);
    }

    @Override
    public long recordUse(SecretHash hash) {
        gate.check();
        return usage.recordUse(hash);
    }

    @Override
    public boolean ban(SecretHash hash) {
        boolean banned = jdbi.withHandle(handle -> handle
                .createUpdate("UPDATE campus_key SET banned = TRUE WHERE key_hash = :hash")
                .bind("hash", hash.hex())
                .execute()) > 0;
        if (banned) {
            usage.banned(hash);
        }
        return banned;
    }

    /**
     * Commits every use counted so far and waits for it: a use is answered before its count is committed, and a
     * backup must hold every use answered before it began.
     */
    public void keepUsesNow() {
        usage.keepNow();
    }

    /** Commits every use counted so far, then stops counting. */
    @Override
    public void close() {
        usage.close();
    }

    private Optional<CampusKey> read(SecretHash hash) {
        return jdbi.withHandle(handle -> handle
                .createQuery("SELECT requests, banned FROM campus_key WHERE key_hash = :hash")
                .bind("hash", hash.hex())
                .map((rs, ctx) -> new CampusKey(hash, rs.getLong("requests"), rs.getBoolean("banned")))
                .findOne());
    }

    /** Several instances on one database: the row is the only count, read and added to by every use. */
    private final class CountedInTheRow implements Usage {

        @Override
        public Optional<CampusKey> find(SecretHash hash) {
            return read(hash);
        }

        @Override
        public long recordUse(SecretHash hash) {
            // PostgreSQL's RETURNING: the count this statement made, not one another use made since.
            return jdbi.withHandle(handle -> handle
                    .createQuery("UPDATE campus_key SET requests = requests + 1 WHERE key_hash = :hash "
                            + "RETURNING requests")
                    .bind("hash", hash.hex())
                    .mapTo(Long.class)
                    .findOne())
                    .orElseThrow(() -> new IllegalStateException("no campus key " + hash));
        }

        @Override
        public void added(CampusKey key) {
        }

        @Override
        public void banned(SecretHash hash) {
        }

        @Override
        public void keepNow() {
            // Each use is committed before it is answered.
        }

        @Override
        public void close() {
        }
    }

    /** This process the only writer: counts kept in memory, their increments committed in groups. */
    private final class CountedInMemory implements Usage {

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

        private final Map<String, Known> known = new ConcurrentHashMap<>();
        /** Keys with uses not yet handed to the writer. */
        private final Set<Known> used = ConcurrentHashMap.newKeySet();
        private final GroupCommitWriter<Map<String, Long>> writer;
        private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "hexaflow-campus-usage-flush");
            thread.setDaemon(true);
            return thread;
        });

        CountedInMemory() {
            this.writer = new GroupCommitWriter<>(jdbi, gate, "hexaflow-campus-usage", CountedInMemory::addUses,
                    uses -> 1);
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
            Optional<Known> read = read(hash).map(row -> new Known(hash.hex(), row.requests(), row.banned()));
            // Two first reads of one key may race: the first one kept wins, so every use counts on one number.
            return read.map(fresh -> known.computeIfAbsent(hash.hex(), hex -> fresh));
        }

        @Override
        public void added(CampusKey key) {
            known.put(key.hash().hex(), new Known(key.hash().hex(), key.requests(), key.banned()));
        }

        @Override
        public long recordUse(SecretHash hash) {
            Known key = known(hash).orElseThrow(() -> new IllegalStateException("no campus key " + hash));
            long count = key.requests.incrementAndGet();
            key.unkept.incrementAndGet();
            used.add(key);
            return count;
        }

        @Override
        public void banned(SecretHash hash) {
            known(hash).ifPresent(key -> key.banned = true);
        }

        /**
         * Hands the uses gathered since the last flush to the writer as one change; uses whose commit fails go
         * back to their keys for the next flush. A use counted while this runs is either taken now or left for the
         * next.
         */
        @Override
        public void keepNow() {
            CompletableFuture<Void> marker;
            synchronized (this) {
                flush();
                // Queued after every flush so far, the flusher's included (flushes take turns): committed once they
                // all are.
                marker = writer.submit(Map.of());
            }
            marker.join();
        }

        /** One flush at a time: a use taken by one is submitted before another flush can queue anything after it. */
        private synchronized void flush() {
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
            writer.submit(increments).whenComplete((kept, failure) -> {
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

        @Override
        public void close() {
            flusher.shutdown();
            try {
                flusher.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            flush();
            writer.close();
        }
    }
}
