package dev.hexaflow.adapters.persistence.jdbi;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Group commit: one thread takes every change waiting in the queue and writes them in one transaction, so that a
 * hundred runs going on at once cost one commit, not a hundred. Changes are written in the order they were
 * queued; each one's future completes once its transaction is committed. When a batch fails, its changes are
 * written again one transaction each, so that one bad change fails alone. A batch also stops at
 * {@link #MAX_BATCH_WEIGHT} (the characters its changes hold), so that a few large changes (runs with long inputs
 * and outputs) never make one transaction too large for the store's memory: each of them is written in a smaller
 * one, alone if need be. The thread keeps one connection and its prepared statements; on a database server
 * ({@link WriteGate#releasesIdleConnections}) it gives it back to the pool after {@link #IDLE} with nothing to
 * write, so that a connection the server ended meanwhile (a restart) is found by the pool's check as it lends one,
 * not by the next change, which would fail with it.
 *
 * @param <C> a change; the batch writer is given them in queue order and may merge them
 */
final class GroupCommitWriter<C> implements AutoCloseable {

    /** The most changes one transaction takes. */
    private static final int MAX_BATCH = 1024;

    /**
     * The most characters (as {@code weight} counts them) one transaction takes past its first change: H2 holds a
     * transaction's pages in memory until it commits, and a few hundred runs of a few megabytes each, written at
     * once, took a 512 MB heap with it.
     */
    static final long MAX_BATCH_WEIGHT = 4_000_000;

    /**
     * How long the connection is kept with nothing to write: longer than HikariCP's half second, within which it
     * lends a connection back untested.
     */
    static final java.time.Duration IDLE = java.time.Duration.ofSeconds(1);

    private record Pending<C>(C change, CompletableFuture<Void> kept) {
    }

    /** Writes a batch of changes, in queue order, with statements of the writer's connection. */
    @FunctionalInterface
    interface BatchWrite<C> {
        void write(Statements statements, List<C> changes) throws SQLException;
    }

    /** The writer connection's prepared statements, each prepared once. */
    @FunctionalInterface
    interface Statements {
        PreparedStatement prepared(String sql) throws SQLException;
    }

    private final Jdbi jdbi;
    private final WriteGate gate;
    private int generation;
    private final BatchWrite<C> write;
    private final ToLongFunction<C> weight;
    /** Run after each commit to force it to the disk ({@link CommitSync}), or null. */
    private final CommitSync.Sync sync;
    /** How long a batch smaller than the last one waits for more ({@link CommitLinger}); 0 for not at all. */
    private final long lingerNanos;
    private int lastBatch;
    /** A change the linger took that did not fit its batch's weight: the next batch's first. */
    private Pending<C> carried;
    private final BlockingQueue<Pending<C>> queue = new LinkedBlockingQueue<>();
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private final Thread thread;
    private Handle handle;
    private long lastWrite;
    private volatile boolean closed;
    private volatile boolean ended;

    GroupCommitWriter(Jdbi jdbi, String threadName, BatchWrite<C> write) {
        this(jdbi, WriteGate.OPEN, threadName, write, change -> 1);
    }

    /** @param weight how many characters a change holds, which bounds how many of them one transaction takes */
    GroupCommitWriter(Jdbi jdbi, WriteGate gate, String threadName, BatchWrite<C> write, ToLongFunction<C> weight) {
        this.jdbi = jdbi;
        this.gate = gate;
        this.generation = gate.generation();
        this.write = write;
        this.weight = weight;
        this.sync = CommitSync.of(jdbi);
        this.lingerNanos = CommitLinger.nanosOf(jdbi);
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues a change; the answer completes when it is committed, or exceptionally when it cannot be. */
    CompletableFuture<Void> submit(C change) {
        CompletableFuture<Void> kept = new CompletableFuture<>();
        if (closed) {
            kept.completeExceptionally(new IllegalStateException("the store is closed"));
            return kept;
        }
        queue.add(new Pending<>(change, kept));
        if (ended) {
            failQueued();
        }
        return kept;
    }

    private void loop() {
        List<Pending<C>> batch = new ArrayList<>();
        try {
            while (!closed || !queue.isEmpty() || carried != null) {
                Pending<C> first = carried != null ? carried : queue.poll(100, TimeUnit.MILLISECONDS);
                carried = null;
                if (first == null) {
                    if (handle != null && gate.releasesIdleConnections()
                            && System.nanoTime() - lastWrite > IDLE.toNanos()) {
                        disconnect();
                    }
                    continue;
                }
                batch.add(first);
                long weighed = fill(batch, weight.applyAsLong(first.change()));
                if (lingerNanos > 0 && lastBatch > 1 && batch.size() < lastBatch) {
                    linger(batch, weighed);
                }
                lastBatch = batch.size();
                try {
                    commit(batch);
                } catch (RuntimeException | Error unexpected) {
                    // The batch fails, not the writer: a thread that died here would leave every later change
                    // waiting for ever.
                    batch.forEach(pending -> pending.kept().completeExceptionally(unexpected));
                    disconnect();
                }
                lastWrite = System.nanoTime();
                batch.clear();
            }
        } catch (InterruptedException e) {
            // Nothing interrupts this thread on purpose (an interrupt would close H2's file channel).
            Thread.currentThread().interrupt();
        } finally {
            disconnect();
            if (carried != null) {
                carried.kept().completeExceptionally(new IllegalStateException("the store is closed"));
            }
            // A change queued while the writer stopped is failed here or by its own submit, which reads ended
            // after queueing: whichever of the two drains second sees it.
            ended = true;
            failQueued();
        }
    }

    /**
     * Adds what waits to the batch, up to its count and its weight; this thread alone takes from the queue. Answers
     * the batch's weight.
     */
    private long fill(List<Pending<C>> batch, long weighed) {
        Pending<C> next;
        while (batch.size() < MAX_BATCH && (next = queue.peek()) != null) {
            long more = weighed + weight.applyAsLong(next.change());
            if (more > MAX_BATCH_WEIGHT) {
                return MAX_BATCH_WEIGHT;
            }
            weighed = more;
            batch.add(queue.poll());
        }
        return weighed;
    }

    /**
     * Waits, up to the linger, for the batch to grow as large as the last one: under load its callers' next changes
     * are on their way, and each commit's fixed cost is shared by more of them.
     */
    private void linger(List<Pending<C>> batch, long weighed) throws InterruptedException {
        long deadline = System.nanoTime() + lingerNanos;
        long left = lingerNanos;
        while (batch.size() < lastBatch && weighed < MAX_BATCH_WEIGHT && left > 0 && !closed) {
            Pending<C> next = queue.poll(left, TimeUnit.NANOSECONDS);
            if (next == null) {
                return;
            }
            long more = weighed + weight.applyAsLong(next.change());
            if (more > MAX_BATCH_WEIGHT) {
                carried = next;
                return;
            }
            batch.add(next);
            weighed = fill(batch, more);
            left = deadline - System.nanoTime();
        }
    }

    private void commit(List<Pending<C>> batch) {
        List<C> changes = new ArrayList<>(batch.size());
        batch.forEach(pending -> changes.add(pending.change()));
        try {
            gate.check();
        } catch (RuntimeException refused) {
            batch.forEach(pending -> pending.kept().completeExceptionally(refused));
            return;
        }
        if (generation != gate.generation()) {
            disconnect();
            generation = gate.generation();
        }
        try {
            inTransaction(changes);
        } catch (SQLException | RuntimeException e) {
            RuntimeException storage = gate.failed(e);
            if (storage != null) {
                // Not one change at a time: that would only try the database again, and each would wait for it.
                disconnect();
                batch.forEach(pending -> pending.kept().completeExceptionally(storage));
                return;
            }
            if (batch.size() == 1) {
                batch.get(0).kept().completeExceptionally(failure(e));
                return;
            }
            for (Pending<C> pending : batch) {
                try {
                    inTransaction(List.of(pending.change()));
                } catch (SQLException | RuntimeException alone) {
                    pending.kept().completeExceptionally(failure(alone));
                    continue;
                }
                synced(List.of(pending));
            }
            return;
        }
        synced(batch);
    }

    /**
     * Forces the committed batch to the disk when the store asks for it, then tells its waiters. A sync that fails
     * fails the batch without writing it again: it is committed, only not known to be on the disk.
     */
    private void synced(List<Pending<C>> batch) {
        if (sync != null) {
            try {
                sync.sync(connection());
            } catch (SQLException | RuntimeException e) {
                RuntimeException storage = gate.failed(e);
                disconnect();
                RuntimeException refused = storage != null ? storage : failure(e);
                batch.forEach(pending -> pending.kept().completeExceptionally(refused));
                return;
            }
        }
        batch.forEach(pending -> pending.kept().complete(null));
    }

    private void inTransaction(List<C> changes) throws SQLException {
        Connection connection = connection();
        try {
            write.write(this::prepared, changes);
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException broken) {
                e.addSuppressed(broken);
                disconnect();
            }
            throw e;
        }
    }

    private Connection connection() throws SQLException {
        if (handle == null) {
            handle = jdbi.open();
            handle.getConnection().setAutoCommit(false);
        }
        return handle.getConnection();
    }

    private PreparedStatement prepared(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection().prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    private void disconnect() {
        statements.clear();
        if (handle != null) {
            try {
                handle.getConnection().setAutoCommit(true);
                handle.close();
            } catch (SQLException | RuntimeException e) {
                // The connection is gone already; the next batch opens another.
            }
            handle = null;
        }
    }

    private static RuntimeException failure(Exception e) {
        return e instanceof RuntimeException runtime ? runtime
                : new IllegalStateException("the changes could not be written: " + e.getMessage(), e);
    }

    private void failQueued() {
        List<Pending<C>> left = new ArrayList<>();
        queue.drainTo(left);
        left.forEach(pending -> pending.kept().completeExceptionally(
                new IllegalStateException("the store is closed")));
    }

    /** Changes queued and not yet taken into a batch. */
    int backlog() {
        return queue.size();
    }

    /** Writes what is queued, then stops; changes queued after this fail at once. */
    @Override
    public void close() {
        closed = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
