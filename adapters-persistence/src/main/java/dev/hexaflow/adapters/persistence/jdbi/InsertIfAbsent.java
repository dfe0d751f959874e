package dev.hexaflow.adapters.persistence.jdbi;

import java.sql.SQLException;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * A row inserted only where its name is not taken yet, in SQL both stores read alike: of several processes that
 * insert the same name at once, one inserts it, and the others find it taken (a row added between their check and
 * their insert is a unique violation, answered the same way).
 */
public final class InsertIfAbsent {

    private InsertIfAbsent() {
    }

    /**
     * Inserts ({@code name}, {@code value}) into {@code table}'s {@code nameColumn} and {@code valueColumn} unless a
     * row of that name is there; answers whether this call inserted it.
     */
    public static boolean insert(Jdbi jdbi, String table, String nameColumn, String valueColumn, String name,
            Object value) {
        try {
            return jdbi.withHandle(handle -> handle.createUpdate("INSERT INTO " + table + " (" + nameColumn + ", "
                    + valueColumn + ") SELECT :name, :value FROM (VALUES (1)) AS one (x) WHERE NOT EXISTS (SELECT 1 "
                    + "FROM " + table + " WHERE " + nameColumn + " = :name)").bind("name", name).bind("value", value)
                    .execute()) == 1;
        } catch (UnableToExecuteStatementException e) {
            if (e.getCause() instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith("23")) {
                return false; // another process inserted it between the check and the insert
            }
            throw e;
        }
    }
}
