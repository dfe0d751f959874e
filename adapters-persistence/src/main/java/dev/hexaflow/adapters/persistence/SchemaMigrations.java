package dev.hexaflow.adapters.persistence;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Brings a database's schema up to date with Flyway, unless it already is. A start on an existing database spent
 * some 0.6 s of CPU in Flyway (its classes, and the check of every script it had applied) to find nothing to do,
 * the longest step of such a start (BENCHMARKS.md, issue 40); one query of Flyway's history now finds that. What
 * the shortcut does not do is Flyway's check that no applied script was changed since: the scripts are inside the
 * jar, and a jar's scripts do not change.
 */
public final class SchemaMigrations {

    /** The newest script's version under {@code db/}; {@code SchemaMigrationsTest} holds it to the scripts. */
    public static final int NEWEST = 34;

    private SchemaMigrations() {
    }

    /** Runs the scripts at {@code locations} that the database lacks, if it lacks any. */
    static void bringUpToDate(DataSource pool, String... locations) {
        if (!isCurrent(pool)) {
            Flyway.configure().dataSource(pool).locations(locations).load().migrate();
        }
    }

    /**
     * Whether Flyway's history holds every version up to {@link #NEWEST}, each applied successfully, and none
     * newer. Anything else (no history yet, a failed script, a database of a newer build, a database that cannot
     * be read) is Flyway's to handle and to explain.
     */
    static boolean isCurrent(DataSource pool) {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT \"version\", \"success\" FROM \"flyway_schema_history\"")) {
            boolean[] applied = new boolean[NEWEST + 1];
            while (rows.next()) {
                String version = rows.getString(1);
                if (!rows.getBoolean(2)) {
                    return false;
                }
                if (version == null) {
                    continue; // Flyway's own rows (a schema it made) carry no version
                }
                int number = Integer.parseInt(version);
                if (number < 1 || number > NEWEST) {
                    return false;
                }
                applied[number] = true;
            }
            for (int number = 1; number <= NEWEST; number++) {
                if (!applied[number]) {
                    return false;
                }
            }
            return true;
        } catch (SQLException | NumberFormatException e) {
            return false;
        }
    }
}
