package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.Database;
import dev.hexaflow.adapters.persistence.Durability;
import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.H2StorageHealth;
import dev.hexaflow.adapters.persistence.PostgresDatabase;
import dev.hexaflow.adapters.persistence.PostgresInstanceSignals;
import dev.hexaflow.adapters.persistence.PostgresStorageHealth;
import dev.hexaflow.adapters.persistence.StorageWatch;
import dev.hexaflow.adapters.persistence.jdbi.Signals;
import dev.hexaflow.adapters.persistence.jdbi.CommitLinger;
import dev.hexaflow.app.StartupException;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.DataDirectory;
import dev.hexaflow.app.config.DatabaseServer;
import java.nio.file.Path;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/**
 * The data directory and the database, opened together and closed together: the one place that picks the store.
 * H2 in the data directory by default, which then holds the directory's lock; or the PostgreSQL server the
 * configuration names, while the data directory keeps what is not in the database (uploaded and tool files, the
 * knowledge index, the admin token) and takes no lock.
 */
public final class Storage implements AutoCloseable {

    private final Path dataDir;
    private final DataDirectory directory;
    private final Store store;
    private final Instance instance;
    private StorageWatch health;

    /** The database and how it is brought up to date and watched, which is where H2 and PostgreSQL differ. */
    private sealed interface Store {
        Database database();
    }

    private record H2Store(H2Database database) implements Store {
    }

    private record PostgresStore(PostgresDatabase database, DatabaseServer server, PostgresInstanceSignals signals)
            implements Store {
    }

    private Storage(Path dataDir, DataDirectory directory, Store store, Instance instance, int linger) {
        this.dataDir = dataDir;
        this.directory = directory;
        this.store = store;
        this.instance = instance;
        CommitLinger.applyTo(store.database().jdbi(), linger);
    }

    /** How long the run writer under load waits for more runs before a commit ({@code HEXAFLOW_WRITER_LINGER_MICROS}). */
    private static int linger() {
        String text = System.getenv().getOrDefault("HEXAFLOW_WRITER_LINGER_MICROS",
                Integer.toString(CommitLinger.DEFAULT_MICROS));
        try {
            int micros = Integer.parseInt(text.trim());
            if (micros >= 0 && micros <= CommitLinger.MAX_MICROS) {
                return micros;
            }
        } catch (NumberFormatException e) {
            // Told below, as a number out of range is.
        }
        throw new StartupException("HEXAFLOW_WRITER_LINGER_MICROS must be a whole number of microseconds from 0 to "
                + CommitLinger.MAX_MICROS + ", not '" + text + "'");
    }

    /** Opens the data directory and the configured database, brought up to date. */
    public static Storage open(Configuration config) {
        Storage storage = connect(config);
        try {
            storage.migrate();
            return storage;
        } catch (RuntimeException e) {
            storage.close();
            throw e;
        }
    }

    /**
     * Opens the data directory (taking its lock, for H2) and connects to the configured database without
     * migrating it: {@link #migrate()} must come before any use of the database.
     */
    public static Storage connect(Configuration config) {
        if (config.database().isPresent()) {
            return connect(config.dataDir(), config.database().get());
        }
        return connect(config.dataDir());
    }

    /** As {@link #connect(Configuration)} on H2 in {@code dataDir}. */
    public static Storage connect(Path dataDir) {
        return connect(dataDir, System.getenv().getOrDefault("HEXAFLOW_H2_OPTIONS", ""));
    }

    /** @param h2Options H2 settings over Hexaflow's own ({@code HEXAFLOW_H2_OPTIONS}), such as CACHE_SIZE=65536 */
    public static Storage connect(Path dataDir, String h2Options) {
        return connect(dataDir, h2Options, durability());
    }

    /** @param durability whether each group commit is also forced to the disk ({@code HEXAFLOW_DURABILITY}) */
    public static Storage connect(Path dataDir, String h2Options, Durability durability) {
        int linger = linger();
        DataDirectory directory = DataDirectory.acquire(dataDir);
        try {
            return new Storage(dataDir, directory, new H2Store(H2Database.connectFile(dataDir, h2Options,
                    durability)), Instance.alone(), linger);
        } catch (RuntimeException e) {
            directory.close();
            throw new StartupException("Cannot open the database in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /** What a kept run survives: written to the operating system (the default) or synced to the disk. */
    private static Durability durability() {
        try {
            return Durability.parse(System.getenv().getOrDefault("HEXAFLOW_DURABILITY", "written"));
        } catch (IllegalArgumentException e) {
            throw new StartupException(e.getMessage(), e);
        }
    }

    private static Storage connect(Path dataDir, DatabaseServer server) {
        if (!server.url().startsWith("jdbc:postgresql://")) {
            throw new StartupException("HEXAFLOW_DATABASE_URL (--database-url) must name a PostgreSQL database as "
                    + "jdbc:postgresql://HOST:PORT/DATABASE, not '" + server.shownUrl() + "'");
        }
        Durability durability = durability();
        int linger = linger();
        DataDirectory directory = DataDirectory.open(dataDir);
        try {
            PostgresDatabase database = PostgresDatabase.connect(server.url(), server.user(), server.password(),
                    durability);
            // Other instances may serve the same database: every repository made on its Jdbi tells and hears them.
            String id = java.util.UUID.randomUUID().toString();
            PostgresInstanceSignals signals = new PostgresInstanceSignals(server.url(), server.user(),
                    server.password(), database.jdbi(), id);
            Signals.applyTo(database.jdbi(), signals);
            return new Storage(dataDir, directory, new PostgresStore(database, server, signals),
                    new Instance(id, signals, true), linger);
        } catch (PostgresDatabase.UnavailableException e) {
            directory.close();
            throw new StartupException(e.getMessage(), e);
        } catch (RuntimeException e) {
            directory.close();
            throw new StartupException("Cannot connect to the PostgreSQL database: " + firstLine(e), e);
        }
    }

    /** Brings the database's schema up to date, or says why it cannot (the storage is then to be closed). */
    public void migrate() {
        if (store instanceof H2Store h2) {
            try {
                h2.database().migrate(dataDir);
            } catch (H2Database.DatabaseInUseException e) {
                throw new StartupException("The database in " + dataDir + " is in use by another process. "
                        + "Stop it, or choose another directory with --data-dir.", e);
            } catch (RuntimeException e) {
                throw new StartupException("Cannot open the database in " + dataDir + ": " + e.getMessage(), e);
            }
        } else if (store instanceof PostgresStore postgres) {
            try {
                postgres.database().migrate();
            } catch (RuntimeException e) {
                throw new StartupException("Cannot bring the PostgreSQL database at " + postgres.server().shownUrl()
                        + " up to date: " + firstLine(e), e);
            }
        }
        directory.keepPrivate(); // the database file was made by the first connection, with the umask's modes
    }

    /** The first line of a failure's message: Flyway's go on over several, and a start failure is said in one. */
    private static String firstLine(RuntimeException e) {
        String message = String.valueOf(e.getMessage()).strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline).strip();
    }

    /** Whether the data is kept in a PostgreSQL server rather than in the data directory. */
    boolean onDatabaseServer() {
        return store instanceof PostgresStore;
    }

    /**
     * The watch over the disk and the H2 database, made on the first call: new work is refused below {@code
     * minFreeMb} free (HEXAFLOW_MIN_FREE_DISK_MB), and the database is opened again once writes that failed can
     * succeed. A PostgreSQL server's disk is not watched; a failure that is its being out of reach is told from the
     * statement's own ({@link PostgresStorageHealth}).
     */
    public synchronized StorageWatch health(long minFreeMb) {
        if (health == null) {
            health = store instanceof H2Store h2 ? new H2StorageHealth(dataDir, h2.database(),
                    minFreeMb * 1024 * 1024, Duration.ofSeconds(1), LOG::warn) : new PostgresStorageHealth();
        }
        return health;
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Storage.class);

    public DataDirectory directory() {
        return directory;
    }

    /** This process among those serving the store. */
    public Instance instance() {
        return instance;
    }

    javax.sql.DataSource dataSource() {
        return store.database().dataSource();
    }

    public Jdbi jdbi() {
        return store.database().jdbi();
    }

    /**
     * Whether this start is the server's first on this database (a database a command made before any server
     * start has not had one), and so does its work (the bundled campus data, a campus key, the demo apps), which it
     * marks done once that work is done ({@link #markFirstServerStartDone}). Alone on the store, a start only asks.
     * Where instances share the store and may start at once, a start takes the first start (one of them does) and
     * gives it back if it fails ({@link #giveUpFirstServerStart}); one that dies during it leaves it to the next
     * start once its lease has lapsed.
     *
     * @param leaseCutoff the store's time (ms) before which a lease not renewed has lapsed
     */
    public boolean takeFirstServerStart(long leaseCutoff) {
        if (store.database().claimed(FIRST_START_DONE)) {
            return false;
        }
        return !instance.shared() || store.database().claimFor(FIRST_START, FIRST_START_DONE, instance.id(),
                java.time.Instant.now().getEpochSecond(), leaseCutoff);
    }

    /**
     * Marks the first server start done, once its work is done and reported: a start that fails before that leaves
     * it to the next start.
     */
    public void markFirstServerStartDone() {
        store.database().claimOnce(FIRST_START_DONE, java.time.Instant.now().getEpochSecond());
    }

    /** Gives back a first start this start took and could not complete, for the next start to take. */
    public void giveUpFirstServerStart() {
        if (instance.shared()) {
            store.database().unclaim(FIRST_START, instance.id());
        }
    }

    private static final String FIRST_START = "first_start";
    private static final String FIRST_START_DONE = "first_start_done";

    @Override
    public void close() {
        try {
            if (health != null) {
                health.close();
            }
            if (store instanceof PostgresStore postgres) {
                postgres.signals().close();
            }
            store.database().close();
        } finally {
            directory.close();
        }
    }
}
