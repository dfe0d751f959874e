package dev.hexaflow.adapters.persistence;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.hexaflow.adapters.persistence.jdbi.SqlDialect;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlStatements;

/**
 * A PostgreSQL server as the store, reached through a pool of connections and migrated by Flyway from
 * {@code db/postgresql} and {@code db/common}: the same versions as H2's, in PostgreSQL's own types where they differ.
 */
public final class PostgresDatabase implements Database {

    /**
     * PostgreSQL's migrations: those in its own SQL ({@code db/postgresql}, the same versions as H2's
     * {@code db/migration}) and those both stores read alike ({@code db/common}).
     */
    static final String[] MIGRATIONS = {"classpath:db/postgresql", "classpath:db/common"};

    /**
     * Connections kept at most. Each group-commit writer holds one while it has changes to write, the rest serve
     * requests; a PostgreSQL server allows 100 by default, room for a few instances.
     */
    private static final int MAX_CONNECTIONS = 20;

    private final HikariDataSource pool;
    private final Jdbi jdbi;

    private PostgresDatabase(HikariDataSource pool) {
        this.pool = pool;
        this.jdbi = Jdbi.create(NulFreeText.over(pool));
        this.jdbi.getConfig(SqlStatements.class).setUnusedBindingAllowed(false);
        SqlDialect.POSTGRESQL.applyTo(jdbi);
    }

    /**
     * Connects to the database at {@code url} ({@code jdbc:postgresql://host:port/db}) and brings its schema up to
     * date.
     *
     * @throws IllegalArgumentException when {@code url} is not a PostgreSQL JDBC URL
     * @throws UnavailableException     when the server cannot be reached, refuses the login or the migration fails
     */
    public static PostgresDatabase open(String url, String user, String password) {
        PostgresDatabase database = connect(url, user, password);
        try {
            database.migrate();
            return database;
        } catch (RuntimeException e) {
            database.close();
            throw new UnavailableException("Cannot bring the PostgreSQL database at " + shownUrl(url)
                    + " up to date: " + firstLine(e).replace(url, shownUrl(url)), e);
        }
    }

    /** As {@link #open} without migrating: {@link #migrate()} must come before any other use. */
    public static PostgresDatabase connect(String url, String user, String password) {
        return connect(url, user, password, Durability.WRITTEN);
    }

    /**
     * As {@link #connect(String, String, String)} in the durability mode given. PostgreSQL's own default
     * ({@code synchronous_commit = on}) already flushes each commit's WAL to the disk before it answers, which is
     * {@link Durability#SYNCED}: that mode sets it on every connection, so that a server configured with it off does
     * not weaken it; {@link Durability#WRITTEN} leaves the server's setting as it is.
     */
    public static PostgresDatabase connect(String url, String user, String password, Durability durability) {
        if (!url.startsWith("jdbc:postgresql://")) {
            throw new IllegalArgumentException("a PostgreSQL database is named by a URL jdbc:postgresql://host:port/"
                    + "database, not '" + shownUrl(url) + "'");
        }
        if (hasUserInfo(url)) {
            // The driver would log the part before '@' as a bad port number: a password, printed.
            throw new IllegalArgumentException("a PostgreSQL URL names no user or password before its host ("
                    + shownUrl(url) + "): set HEXAFLOW_DATABASE_USER and HEXAFLOW_DATABASE_PASSWORD");
        }
        probe(url, user, password);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setDriverClassName("org.postgresql.Driver");
        if (user != null && !user.isBlank()) {
            config.setUsername(user);
        }
        if (password != null && !password.isEmpty()) {
            config.setPassword(password);
        }
        config.setPoolName("hexaflow-postgresql");
        config.setMaximumPoolSize(MAX_CONNECTIONS);
        config.setMinimumIdle(2);
        // A server that does not answer is an error at start within seconds, not a hang.
        config.setConnectionTimeout(10_000);
        config.setInitializationFailTimeout(1);
        if (durability == Durability.SYNCED) {
            config.setConnectionInitSql("SET synchronous_commit = on");
        }
        try {
            return new PostgresDatabase(new HikariDataSource(config));
        } catch (HikariPool.PoolInitializationException e) {
            throw new UnavailableException("Cannot connect to the PostgreSQL database at " + shownUrl(url)
                    + ": " + firstLine(e).replace(url, shownUrl(url)), e);
        }
    }

    /**
     * One connection made and let go, so that a server that cannot be reached or refuses the login is told in the
     * driver's own words, before a pool would log its failure at length.
     */
    private static void probe(String url, String user, String password) {
        try (java.sql.Connection connection = new org.postgresql.Driver().connect(url, login(user, password))) {
            if (connection == null) {
                throw new IllegalArgumentException("the PostgreSQL driver does not take the URL " + shownUrl(url)
                        + " (or its parameters)");
            }
        } catch (SQLException e) {
            throw new UnavailableException("Cannot connect to the PostgreSQL database at " + shownUrl(url)
                    + ": " + firstLine(e).replace(url, shownUrl(url)), e);
        }
    }

    /** The driver's login properties for a connection of its own: the user and password given, ten seconds to connect. */
    static java.util.Properties login(String user, String password) {
        java.util.Properties login = new java.util.Properties();
        if (user != null && !user.isBlank()) {
            login.setProperty("user", user);
        }
        if (password != null && !password.isEmpty()) {
            login.setProperty("password", password);
        }
        login.setProperty("connectTimeout", "10");
        return login;
    }

    /** Brings the schema up to date; several instances starting at once take turns (Flyway locks the database). */
    public void migrate() {
        SchemaMigrations.bringUpToDate(pool, MIGRATIONS);
    }

    @Override
    public Jdbi jdbi() {
        return jdbi;
    }

    @Override
    public DataSource dataSource() {
        return NulFreeText.over(pool);
    }

    @Override
    public void close() {
        pool.close();
    }

    /** The URL without its parameters, which may hold a password. */
    /**
     * The URL as a message may show it: without its parameters (a {@code password=} may be one) and without a
     * {@code user:password@} before the host.
     */
    public static String shownUrl(String url) {
        String shown = withoutQuery(url);
        return hasUserInfo(url) ? shown.substring(0, shown.indexOf("//") + 2) + shown.substring(shown.lastIndexOf('@')
                + 1) : shown;
    }

    private static String withoutQuery(String url) {
        int question = url.indexOf('?');
        return question < 0 ? url : url.substring(0, question);
    }

    /** Whether a {@code user:password@} stands before the host. */
    private static boolean hasUserInfo(String url) {
        String shown = withoutQuery(url);
        int authority = shown.indexOf("//");
        return authority >= 0 && shown.lastIndexOf('@') > authority;
    }

    /** The message of the deepest SQL error, or of the error itself: the driver's words say what went wrong. */
    private static String firstLine(Throwable e) {
        Throwable said = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException) {
                said = t;
            }
        }
        String message = said.getMessage() == null ? said.getClass().getSimpleName() : said.getMessage();
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }

    /** The PostgreSQL server cannot be reached, refuses the login, or its schema cannot be brought up to date. */
    public static final class UnavailableException extends RuntimeException {
        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
