package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.CommitSync;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcConnectionPool;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlStatements;

/** The embedded H2 database: opened on a file under the data directory (or in memory), migrated by Flyway. */
public final class H2Database implements Database {

    static {
        H2SystemProperties.apply();
    }

    /** H2's error code for a database file that another process holds open. */
    private static final int DATABASE_ALREADY_OPEN = 90020;

    private final String url;
    /** Whether a migration may first put {@link NewDatabaseFile}'s file in place of a missing one. */
    private final boolean startsFromNewFile;
    private volatile JdbcConnectionPool pool;
    private volatile java.util.function.Consumer<SQLException> connectionFailures = failure -> { };
    private final Jdbi jdbi;
    private boolean closed;

    private H2Database(String url) {
        this(url, false);
    }

    private H2Database(String url, boolean startsFromNewFile) {
        this.url = url;
        this.startsFromNewFile = startsFromNewFile;
        this.pool = newPool(url);
        this.jdbi = Jdbi.create(new CurrentPool());
        this.jdbi.getConfig(SqlStatements.class).setUnusedBindingAllowed(false);
    }

    private static JdbcConnectionPool newPool(String url) {
        JdbcConnectionPool pool = JdbcConnectionPool.create(url, "sa", "");
        pool.setMaxConnections(32);
        return pool;
    }

    /**
     * Lets the pool go and opens the database again through a new one, read-only or not. H2 closes a database
     * whose write failed, and its pool then counts the connections that died with it as still in use, for ever:
     * every later request waits for one. A read-only opening serves reads while the disk is full and writes
     * nothing (so nothing it says yes to can be lost); a writable one, once there is room again, takes writes.
     */
    public synchronized void reopen(boolean readOnly) {
        if (closed) {
            return;
        }
        JdbcConnectionPool old = pool;
        old.dispose();
        pool = newPool(readOnly ? url + ";ACCESS_MODE_DATA=r" : url);
    }

    /**
     * Tells {@code listener} of each connection the pool could not give: a database that closed itself (a write it
     * failed) refuses every new connection, and a request that only reads is then the first to find out.
     */
    public void onConnectionFailure(java.util.function.Consumer<SQLException> listener) {
        connectionFailures = listener;
    }

    /** The pool of the moment, so that a reopening reaches every user of {@link #jdbi()}. */
    private final class CurrentPool implements DataSource {
        @Override
        public java.sql.Connection getConnection() throws SQLException {
            try {
                return pool.getConnection();
            } catch (SQLException e) {
                connectionFailures.accept(e);
                throw e;
            }
        }

        @Override
        public java.sql.Connection getConnection(String user, String password) throws SQLException {
            return pool.getConnection(user, password);
        }

        @Override
        public java.io.PrintWriter getLogWriter() throws SQLException {
            return pool.getLogWriter();
        }

        @Override
        public void setLogWriter(java.io.PrintWriter out) throws SQLException {
            pool.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            pool.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return pool.getLoginTimeout();
        }

        @Override
        public java.util.logging.Logger getParentLogger() throws java.sql.SQLFeatureNotSupportedException {
            return pool.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            return pool.unwrap(type);
        }

        @Override
        public boolean isWrapperFor(Class<?> type) throws SQLException {
            return pool.isWrapperFor(type);
        }
    }

    /**
     * Opens (creating if need be) the database file {@code hexaflow.mv.db} in {@code dataDir} and brings its
     * schema up to date.
     *
     * @throws DatabaseInUseException when another process has the file open
     */
    public static H2Database openFile(Path dataDir) {
        return openFile(dataDir, "");
    }

    /**
     * As {@link #openFile(Path)}, with H2 settings ({@code KEY=VALUE;KEY=VALUE}) over Hexaflow's own:
     * WRITE_DELAY=0, so that each commit reaches the file before the call returns and what a client was told
     * of survives kill -9 of the process (the operating system keeps what was written).
     */
    public static H2Database openFile(Path dataDir, String options) {
        H2Database database = connectFile(dataDir, options);
        database.migrateOrClose(dataDir);
        return database;
    }

    /**
     * As {@link #openFile(Path, String)} without bringing the schema up to date: nothing touches the file until
     * {@link #migrate(Path)} does, which must come before any other use. Lets a start open the database and
     * migrate it on a thread of its own.
     */
    public static H2Database connectFile(Path dataDir, String options) {
        return connectFile(dataDir, options, Durability.WRITTEN);
    }

    /**
     * As {@link #connectFile(Path, String)} in the durability mode given: {@link Durability#SYNCED} makes every
     * group-commit writer on this database force its commit to the disk ({@code CHECKPOINT SYNC}: one fsync of the
     * file) before it answers, where WRITE_DELAY=0 alone writes it to the operating system and never syncs.
     */
    public static H2Database connectFile(Path dataDir, String options, Durability durability) {
        Map<String, String> settings = settings(options);
        H2Database database = new H2Database(url(dataDir, settings), NewDatabaseFile.suits(settings));
        if (durability == Durability.SYNCED) {
            CommitSync.applyTo(database.jdbi, CommitSync.H2);
        }
        return database;
    }

    /**
     * A new database in {@code folder} made by Flyway from the scripts, never from {@link NewDatabaseFile}'s file:
     * how the build makes that file.
     */
    static H2Database migratedWithoutNewFile(Path folder) {
        return open(url(folder, settings("")), folder);
    }

    private static Map<String, String> settings(String options) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("DB_CLOSE_ON_EXIT", "FALSE");
        settings.put("WRITE_DELAY", "0");
        // Each pooled session keeps its parsed statements; H2's default of 8 is fewer than a run request uses.
        settings.put("QUERY_CACHE_SIZE", "64");
        for (String option : options.split(";")) {
            int equals = option.indexOf('=');
            if (equals > 0) {
                settings.put(option.substring(0, equals).strip().toUpperCase(java.util.Locale.ROOT),
                        option.substring(equals + 1).strip());
            } else if (!option.isBlank()) {
                throw new IllegalArgumentException("H2 settings are KEY=VALUE pairs separated by ';', not '"
                        + option + "'");
            }
        }
        return settings;
    }

    private static String url(Path dataDir, Map<String, String> settings) {
        // H2's retry file system: java.nio's FileChannel closes itself when a thread using it is interrupted, and
        // H2 would then close the database under every other thread (a sender or a pruner stopped at shutdown, a
        // pool shut down now). This one opens the channel again and retries the read or write; the file is the
        // same, and the cost none measurable (BENCHMARKS.md).
        StringBuilder url = new StringBuilder("jdbc:h2:retry:" + dataDir.toAbsolutePath().resolve("hexaflow"));
        settings.forEach((key, value) -> url.append(';').append(key).append('=').append(value));
        return url.toString();
    }

    /**
     * Brings the schema of a database made by {@link #connectFile} up to date; closes it when that fails.
     *
     * @throws DatabaseInUseException when another process has the file open
     */
    public void migrate(Path dataDir) {
        migrateOrClose(dataDir);
    }

    /** Opens a private in-memory database, gone when closed: for tests and for running without a store. */
    public static H2Database openInMemory(String name) {
        return open("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", null);
    }

    private static H2Database open(String url, Path dataDir) {
        H2Database database = new H2Database(url);
        database.migrateOrClose(dataDir);
        return database;
    }

    private void migrateOrClose(Path dataDir) {
        try {
            runMigrations(dataDir);
        } catch (RuntimeException e) {
            close();
            if (dataDir != null && causedByOpenDatabase(e)) {
                throw new DatabaseInUseException(dataDir, e);
            }
            throw e;
        }
    }

    /**
     * H2's migrations: those in H2's own SQL ({@code db/migration}) and those both stores read alike
     * ({@code db/common}), which PostgreSQL's read too.
     */
    public static final String[] MIGRATIONS = {"classpath:db/migration", "classpath:db/common"};

    private void runMigrations(Path dataDir) {
        if (startsFromNewFile && dataDir != null) {
            NewDatabaseFile.placeIn(dataDir);
        }
        SchemaMigrations.bringUpToDate(pool, MIGRATIONS);
    }

    private static boolean causedByOpenDatabase(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == DATABASE_ALREADY_OPEN) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Jdbi jdbi() {
        return jdbi;
    }

    @Override
    public DataSource dataSource() {
        return new CurrentPool();
    }

    /** Shuts the database down and lets the pool go; closing again does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try (var connection = pool.getConnection(); var statement = connection.createStatement()) {
            statement.execute("SHUTDOWN");
        } catch (SQLException e) {
            // Already closed or never opened: nothing is left to flush.
        }
        pool.dispose();
    }

    /**
     * Shuts the database down rewriting its file whole ({@code SHUTDOWN COMPACT}), so that the space deleted and
     * superseded rows held goes back to the file system: H2 reuses that space while it runs but does not shrink
     * its file, and with every commit written at once (WRITE_DELAY=0) its file holds two to five times its data.
     * It takes a few seconds per hundred MB, with the database closed to everyone else.
     *
     * @throws IllegalStateException when the rewrite fails (the file is left as it was)
     */
    public synchronized void closeCompacted() {
        if (closed) {
            throw new IllegalStateException("the database is closed already");
        }
        try (var connection = pool.getConnection(); var statement = connection.createStatement()) {
            statement.execute("SHUTDOWN COMPACT");
        } catch (SQLException e) {
            throw new IllegalStateException("the database could not be compacted: " + e.getMessage(), e);
        } finally {
            closed = true;
            pool.dispose();
        }
    }

    /** The database file is held by another process: another server runs on the same data directory. */
    public static final class DatabaseInUseException extends RuntimeException {
        public DatabaseInUseException(Path dataDir, Throwable cause) {
            super("The database in " + dataDir + " is in use by another process", cause);
        }
    }
}
