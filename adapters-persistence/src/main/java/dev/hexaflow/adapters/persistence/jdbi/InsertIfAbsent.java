package dev.hexaflow.adapters.persistence.jdbi;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Update;
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
        return insert(jdbi, table, nameColumn, name, Map.of(valueColumn, value));
    }

    /**
     * Inserts a row of {@code name} in {@code nameColumn} and {@code values} (by column) into {@code table} unless
     * a row of that name is there, in one statement; answers whether this call inserted it.
     */
    public static boolean insert(Jdbi jdbi, String table, String nameColumn, String name, Map<String, ?> values) {
        List<String> columns = List.copyOf(values.keySet());
        StringBuilder statement = new StringBuilder("INSERT INTO ").append(table).append(" (").append(nameColumn);
        columns.forEach(column -> statement.append(", ").append(column));
        statement.append(") SELECT :name");
        for (int i = 0; i < columns.size(); i++) {
            statement.append(", :v").append(i);
        }
        statement.append(" FROM (VALUES (1)) AS one (x) WHERE NOT EXISTS (SELECT 1 FROM ").append(table)
                .append(" WHERE ").append(nameColumn).append(" = :name)");
        try {
            return jdbi.withHandle(handle -> {
                Update insert = handle.createUpdate(statement.toString()).bind("name", name);
                for (int i = 0; i < columns.size(); i++) {
                    insert.bind("v" + i, values.get(columns.get(i)));
                }
                return insert.execute();
            }) == 1;
        } catch (UnableToExecuteStatementException e) {
            if (e.getCause() instanceof SQLException sql && sql.getSQLState() != null
                    && sql.getSQLState().startsWith("23")) {
                return false; // another process inserted it between the check and the insert
            }
            throw e;
        }
    }
}
