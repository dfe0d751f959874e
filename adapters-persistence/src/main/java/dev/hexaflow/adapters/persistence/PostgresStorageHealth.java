package dev.hexaflow.adapters.persistence;

import dev.hexaflow.application.common.StorageUnavailableException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The watch over a PostgreSQL server. Its disk is not this process's to watch, and it stays open when a write fails
 * (a failed statement fails alone; a lost connection is replaced by the pool), so it reports no standing problem and
 * refuses no write ahead. What it tells is whether a failure was the server being out of reach, as opposed to the
 * statement's own error (a constraint violated, a bad value): a connection refused, broken or ended (SQLState class
 * {@code 08}), the server shutting down or starting up ({@code 57P01} admin_shutdown, {@code 57P02} crash_shutdown,
 * {@code 57P03} cannot_connect_now), or no connection to be had within the pool's wait (HikariCP's {@link
 * SQLTransientConnectionException}). A request that met one answers 503 and may be tried again; a writer gives its
 * connection up and fails its batch at once rather than each change alone, and gives an idle connection back to the
 * pool, which tests it before it lends it again. Nothing is to be done to recover: the pool connects again once the
 * server is back.
 */
public final class PostgresStorageHealth implements StorageWatch {

    /** What a client is told. */
    static final String MESSAGE = "The server cannot reach its database now. Please try again shortly.";

    private static final Set<String> SHUTTING_DOWN = Set.of("57P01", "57P02", "57P03");

    /** How deep a chain of causes is followed: far past any driver's, pool's and Jdbi's wrapping, short of a loop. */
    private static final int MAX_CAUSES = 32;

    @Override
    public Optional<StorageUnavailableException> problem() {
        return Optional.empty();
    }

    @Override
    public Optional<StorageUnavailableException> unavailableBehind(Throwable failure) {
        return unreachable(failure).map(reason -> new StorageUnavailableException(
                StorageUnavailableException.Kind.UNREACHABLE, MESSAGE, reason));
    }

    /**
     * Whether {@code failure} is the server being out of reach: what the driver said of it (the deepest SQL error's
     * first line, and its SQLState), or empty when it is not.
     */
    static Optional<String> unreachable(Throwable failure) {
        boolean unreachable = false;
        SQLException deepest = null;
        int depth = 0;
        for (Throwable t = failure; t != null && depth < MAX_CAUSES; t = t.getCause(), depth++) {
            if (t instanceof SQLException sql) {
                deepest = sql;
                unreachable |= sql instanceof SQLTransientConnectionException || isUnreachable(sql.getSQLState());
            }
        }
        if (!unreachable) {
            return Optional.empty();
        }
        String message = deepest.getMessage() == null ? deepest.getClass().getSimpleName() : deepest.getMessage();
        int newline = message.indexOf('\n');
        String said = (newline < 0 ? message : message.substring(0, newline)).strip();
        return Optional.of(deepest.getSQLState() == null ? said : said + " (SQLState " + deepest.getSQLState() + ")");
    }

    private static boolean isUnreachable(String state) {
        return state != null && (state.startsWith("08") || SHUTTING_DOWN.contains(state));
    }

    @Override
    public void check() {
    }

    @Override
    public StorageUnavailableException failed(Throwable e) {
        return unavailableBehind(e).orElse(null);
    }

    @Override
    public int generation() {
        return 0;
    }

    @Override
    public boolean releasesIdleConnections() {
        return true;
    }

    @Override
    public void onRecovered(Consumer<String> action) {
    }

    @Override
    public void close() {
    }
}
