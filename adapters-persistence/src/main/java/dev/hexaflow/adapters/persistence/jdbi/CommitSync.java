package dev.hexaflow.adapters.persistence.jdbi;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.JdbiConfig;

/**
 * What a group-commit writer does after each commit so that what it committed is on the disk, not only written to
 * the operating system, before its callers hear of it: {@link #H2} in the synced durability mode, nothing otherwise.
 * Carried by the Jdbi as its {@link SqlDialect} is, so that every writer made on it does the same.
 */
public final class CommitSync implements JdbiConfig<CommitSync> {

    /** Forces what was committed on a connection to the disk. */
    @FunctionalInterface
    public interface Sync {
        void sync(Connection connection) throws SQLException;
    }

    /** H2's {@code CHECKPOINT SYNC}: the store's pending writes, then one fsync of the database file. */
    public static final Sync H2 = connection -> {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CHECKPOINT SYNC");
        }
    };

    private Sync sync;

    public CommitSync() {
    }

    private CommitSync(Sync sync) {
        this.sync = sync;
    }

    /** The sync set on {@code jdbi}, or null for none. */
    public static Sync of(Jdbi jdbi) {
        return jdbi.getConfig(CommitSync.class).sync;
    }

    /** Makes {@code sync} run after each group commit of the writers made on {@code jdbi} from now on. */
    public static void applyTo(Jdbi jdbi, Sync sync) {
        jdbi.getConfig(CommitSync.class).sync = sync;
    }

    @Override
    public CommitSync createCopy() {
        return new CommitSync(sync);
    }
}
