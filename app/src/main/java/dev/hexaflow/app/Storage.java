package dev.hexaflow.app;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.H2StorageHealth;
import java.nio.file.Path;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/** The data directory and the H2 database in it, opened together and closed together. */
final class Storage implements AutoCloseable {

    private final Path dataDir;
    private final DataDirectory directory;
    private final H2Database database;
    private H2StorageHealth health;

    private Storage(Path dataDir, DataDirectory directory, H2Database database) {
        this.dataDir = dataDir;
        this.directory = directory;
        this.database = database;
    }

    /** Opens the data directory and its database, brought up to date. */
    static Storage open(Path dataDir) {
        Storage storage = connect(dataDir);
        try {
            storage.migrate();
            return storage;
        } catch (RuntimeException e) {
            storage.close();
            throw e;
        }
    }

    /**
     * Opens the data directory (taking its lock) and connects to its database without migrating it: {@link
     * #migrate()} must come before any use of the database.
     */
    static Storage connect(Path dataDir) {
        return connect(dataDir, System.getenv().getOrDefault("HEXAFLOW_H2_OPTIONS", ""));
    }

    /** @param h2Options H2 settings over Hexaflow's own ({@code HEXAFLOW_H2_OPTIONS}), such as CACHE_SIZE=65536 */
    static Storage connect(Path dataDir, String h2Options) {
        DataDirectory directory = DataDirectory.acquire(dataDir);
        try {
            return new Storage(dataDir, directory, H2Database.connectFile(dataDir, h2Options));
        } catch (RuntimeException e) {
            directory.close();
            throw new StartupException("Cannot open the database in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /** Brings the database's schema up to date, or says why it cannot (the storage is then to be closed). */
    void migrate() {
        try {
            database.migrate(dataDir);
        } catch (H2Database.DatabaseInUseException e) {
            throw new StartupException("The database in " + dataDir + " is in use by another process. "
                    + "Stop it, or choose another directory with --data-dir.", e);
        } catch (RuntimeException e) {
            throw new StartupException("Cannot open the database in " + dataDir + ": " + e.getMessage(), e);
        }
        directory.keepPrivate(); // the database file was made by the first connection, with the umask's modes
    }

    /**
     * The watch over the disk and the database, made on the first call: new work is refused below
     * {@code HEXAFLOW_MIN_FREE_DISK_MB} free (default {@value #DEFAULT_MIN_FREE_DISK_MB}), and the database is
     * opened again once writes that failed can succeed.
     */
    synchronized H2StorageHealth health() {
        if (health == null) {
            String setting = System.getenv().getOrDefault("HEXAFLOW_MIN_FREE_DISK_MB", "");
            long minFreeMb;
            try {
                minFreeMb = setting.isBlank() ? DEFAULT_MIN_FREE_DISK_MB : Long.parseLong(setting.strip());
            } catch (NumberFormatException e) {
                throw new StartupException("HEXAFLOW_MIN_FREE_DISK_MB must be a whole number of MB, not '" + setting
                        + "'", e);
            }
            if (minFreeMb < 0) {
                throw new StartupException("HEXAFLOW_MIN_FREE_DISK_MB must not be negative");
            }
            health = new H2StorageHealth(dataDir, database, minFreeMb * 1024 * 1024, Duration.ofSeconds(1),
                    LOG::warn);
        }
        return health;
    }

    /**
     * Room for what is under way when new work stops: the H2 file grows by rewriting live chunks beside old ones,
     * and the largest upload (a video) is 100 MB by default; 64 MB keeps a burst of runs and the store's own
     * housekeeping off a full disk, and is small beside any disk a server runs on.
     */
    static final long DEFAULT_MIN_FREE_DISK_MB = 64;

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Storage.class);

    DataDirectory directory() {
        return directory;
    }

    javax.sql.DataSource dataSource() {
        return database.dataSource();
    }

    Jdbi jdbi() {
        return database.jdbi();
    }

    /**
     * Whether a server has completed a first start on this database (a database a command made before any server
     * start has not).
     */
    boolean firstServerStartDone() {
        return database.claimed(FIRST_START);
    }

    /**
     * Marks the first server start done, once its work (the bundled campus data, a campus key, the demo apps) is
     * done and reported: a start that fails before that leaves it to the next start.
     */
    void markFirstServerStartDone() {
        database.claimOnce(FIRST_START, java.time.Instant.now().getEpochSecond());
    }

    private static final String FIRST_START = "first_start";

    @Override
    public void close() {
        try {
            if (health != null) {
                health.close();
            }
            database.close();
        } finally {
            directory.close();
        }
    }
}
