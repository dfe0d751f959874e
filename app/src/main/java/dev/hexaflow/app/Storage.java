package dev.hexaflow.app;

import dev.hexaflow.adapters.persistence.H2Database;
import java.nio.file.Path;
import org.jdbi.v3.core.Jdbi;

/** The data directory and the H2 database in it, opened together and closed together. */
final class Storage implements AutoCloseable {

    private final DataDirectory directory;
    private final H2Database database;
    private final boolean fresh;

    private Storage(DataDirectory directory, H2Database database, boolean fresh) {
        this.directory = directory;
        this.database = database;
        this.fresh = fresh;
    }

    static Storage open(Path dataDir) {
        return open(dataDir, System.getenv().getOrDefault("HEXAFLOW_H2_OPTIONS", ""));
    }

    /** @param h2Options H2 settings over Hexaflow's own ({@code HEXAFLOW_H2_OPTIONS}), such as CACHE_SIZE=65536 */
    static Storage open(Path dataDir, String h2Options) {
        DataDirectory directory = DataDirectory.acquire(dataDir);
        try {
            boolean fresh = !directory.hasDatabase();
            return new Storage(directory, H2Database.openFile(dataDir, h2Options), fresh);
        } catch (H2Database.DatabaseInUseException e) {
            directory.close();
            throw new StartupException("The database in " + dataDir + " is in use by another process. "
                    + "Stop it, or choose another directory with --data-dir.", e);
        } catch (RuntimeException e) {
            directory.close();
            throw new StartupException("Cannot open the database in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    DataDirectory directory() {
        return directory;
    }

    Jdbi jdbi() {
        return database.jdbi();
    }

    /** Whether the database was made by this opening: the first start on this data directory. */
    boolean fresh() {
        return fresh;
    }

    @Override
    public void close() {
        try {
            database.close();
        } finally {
            directory.close();
        }
    }
}
