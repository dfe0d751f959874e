package dev.hexaflow.adapters.persistence;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.StorageUnavailableException.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Watches the disk under the data directory and the H2 database on it. Three states: ok; disk low (free space
 * under the threshold: new runs, uploads and knowledge writes are refused, writes of work under way go on); writes
 * failing (a write failed: H2 has closed the database, so it is opened again read-only, reads go on and every write
 * is refused at once). Checked every {@code period}; once there is room again, the database is opened writable,
 * what was left running is failed with the reason, and the state is ok again. Each change of state is one line of
 * the log.
 */
public final class H2StorageHealth implements StorageWatch {

    /** H2's error codes for a database that closed itself (two ways) and for one opened read-only. */
    private static final int DATABASE_CLOSED = 90098;
    private static final int DATABASE_CLOSED_UNDER_CONNECTION = 90121;
    private static final int DATABASE_READ_ONLY = 90097;

    private final Path dataDir;
    private final H2Database database;
    private final long minFreeBytes;
    private final Consumer<String> log;
    private final List<Consumer<String>> onRecovered = new ArrayList<>();
    private final ScheduledExecutorService watch;
    private volatile Optional<StorageUnavailableException> problem = Optional.empty();
    private volatile int generation;
    /**
     * Whether writes are taken: false from a failed write until the database is writable again, which is before
     * {@link #problem} clears (new work and readiness wait until what the failure left running is ended).
     */
    private volatile boolean writable = true;
    private String failure;

    public H2StorageHealth(Path dataDir, H2Database database, long minFreeBytes, Duration period,
            Consumer<String> log) {
        this.dataDir = dataDir;
        this.database = database;
        this.minFreeBytes = minFreeBytes;
        this.log = log;
        this.watch = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "hexaflow-disk-watch");
            thread.setDaemon(true);
            return thread;
        });
        // A statement outside the writers (an upload's record, a key, an import) that the store failed tells this
        // watch too, so that the database is opened again rather than left closed under its pool.
        database.jdbi().setSqlLogger(new SqlLogger() {
            @Override
            public void logException(StatementContext context, SQLException ex) {
                failed(ex);
            }
        });
        // So does a connection refused by a database that closed itself, which a request that only reads finds.
        database.onConnectionFailure(this::failed);
        look();
        watch.scheduleWithFixedDelay(this::look, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void onRecovered(Consumer<String> action) {
        onRecovered.add(action);
    }

    @Override
    public Optional<StorageUnavailableException> problem() {
        return problem;
    }

    @Override
    public void check() {
        Optional<StorageUnavailableException> now = problem;
        if (!writable && now.isPresent() && now.get().kind() == Kind.WRITES_FAILING) {
            throw now.get();
        }
    }

    @Override
    public int generation() {
        return generation;
    }

    @Override
    public StorageUnavailableException failed(Throwable e) {
        String cause = storageCause(e);
        if (cause == null) {
            return null;
        }
        return failing(cause);
    }

    /** Whether {@code e} (a failed write) is the store's failure, not the change's: what it says, or null. */
    static String storageCause(Throwable e) {
        // The operating system's words first ("No space left on device"), wherever H2 wrapped them: the innermost
        // I/O failure's (a file system may wrap the channel's own).
        String osWords = null;
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof IOException io && io.getMessage() != null) {
                osWords = io.getMessage();
            }
        }
        if (osWords != null) {
            return osWords;
        }
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof SQLException sql && (sql.getErrorCode() == DATABASE_CLOSED
                    || sql.getErrorCode() == DATABASE_CLOSED_UNDER_CONNECTION
                    || sql.getErrorCode() == DATABASE_READ_ONLY)) {
                return "the database could not be written";
            }
            if (t.getClass().getName().equals("org.h2.mvstore.MVStoreException")) {
                return "the database file could not be written";
            }
        }
        return null;
    }

    /**
     * The refusal for a failed write, made the store's state if it was not already: answered as made here, since the
     * watch may have recovered (and cleared the state) by the time the caller reads it.
     */
    private synchronized StorageUnavailableException failing(String cause) {
        if (!writable && problem.isPresent() && problem.get().kind() == Kind.WRITES_FAILING) {
            return problem.get();
        }
        failure = cause;
        writable = false;
        problem = Optional.of(new StorageUnavailableException(Kind.WRITES_FAILING, "The server cannot keep data now: "
                + "writing to its data directory failed (" + cause + "). Nothing is accepted until there is room "
                + "again; please try again later."));
        log.accept("Writes are failing (" + cause + "; " + freeMb() + " MB free in " + dataDir
                + "): new runs, uploads and knowledge writes are refused, reads go on, until there is room again");
        // H2 closed the database; its pool would wait for ever for the connections that died with it.
        database.reopen(true);
        generation++;
        return problem.get();
    }

    private synchronized void look() {
        long free = freeBytes();
        Optional<StorageUnavailableException> now = problem;
        if (now.isPresent() && now.get().kind() == Kind.WRITES_FAILING) {
            if (free >= Math.max(minFreeBytes, RECOVERY_FLOOR_BYTES)) {
                recover(free);
            }
            return;
        }
        if (free < minFreeBytes) {
            problem = Optional.of(new StorageUnavailableException(Kind.DISK_LOW, "The server's disk is nearly "
                    + "full (" + free / MB + " MB free, " + minFreeBytes / MB + " MB needed): new runs, uploads "
                    + "and knowledge writes are refused until there is room; please try again later."));
            if (now.isEmpty()) {
                log.accept("Disk low: " + free / MB + " MB free in " + dataDir + ", under HEXAFLOW_MIN_FREE_DISK_MB="
                        + minFreeBytes / MB + "; new runs, uploads and knowledge writes are refused until there is "
                        + "room");
            }
        } else if (now.isPresent()) {
            problem = Optional.empty();
            log.accept("Disk space is back: " + free / MB + " MB free in " + dataDir + "; new runs, uploads and "
                    + "knowledge writes are taken again");
        }
    }

    /**
     * Opens the database writable again and takes writes at once; then ends what was left running, and only then
     * takes new work (and says ready). Writes are taken first so that a run ending meanwhile keeps its own end rather
     * than have it refused while the runs it would be spared with are failed; new work waits so that nobody is told
     * ready while a run the failure stopped still reads as running.
     */
    private void recover(long free) {
        try {
            database.reopen(false);
            generation++;
        } catch (RuntimeException e) {
            database.reopen(true);
            generation++;
            return; // Tried again at the next check.
        }
        writable = true;
        log.accept("Recovered: " + free / MB + " MB free in " + dataDir + ", the database is writable again");
        String reason = "The server could not keep the run: writing to its data directory failed (" + failure + ").";
        for (Consumer<String> action : onRecovered) {
            try {
                action.accept(reason);
            } catch (RuntimeException e) {
                log.accept("After recovering, ending what the failed writes left failed (" + e
                        + "); the next start ends it");
            }
        }
        if (writable) { // Not when ending what was left running failed a write again.
            problem = Optional.empty();
        }
    }

    private static final long MB = 1024 * 1024;

    /**
     * The least free space at which a database that failed to write is opened writable again, even with no
     * threshold set: under it the first write would fail again, and the database close itself again.
     */
    private static final long RECOVERY_FLOOR_BYTES = MB;

    private long freeMb() {
        return freeBytes() / MB;
    }

    private long freeBytes() {
        try {
            return Files.getFileStore(dataDir).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        watch.shutdownNow();
    }
}
