package dev.hexaflow.adapters.persistence.jdbi;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.JdbiConfig;

/**
 * Where the SQL of the two stores differs, in one place. A repository writes such a statement through the dialect
 * of its {@link Jdbi} ({@link #of}), which the database that made the Jdbi set ({@link #applyTo}); a Jdbi no
 * database set speaks H2. Everything else is SQL both read alike.
 */
public enum SqlDialect {

    /** The embedded H2 of the data directory. */
    H2 {
        @Override
        public String upsert(String table, String keys, String columns, String values) {
            return "MERGE INTO " + table + " (" + columns + ") KEY (" + keys + ") VALUES (" + values + ")";
        }

        @Override
        public String addTo(String table, String counter, String keys) {
            List<String> keyList = names(keys);
            String source = keyList.stream().map(key -> "CAST(? AS VARCHAR)").collect(Collectors.joining(", "));
            String matched = keyList.stream().map(key -> "t." + key + " = s." + key)
                    .collect(Collectors.joining(" AND "));
            String columns = counter + ", " + String.join(", ", keyList);
            String values = keyList.stream().map(key -> "s." + key).collect(Collectors.joining(", "));
            return "MERGE INTO " + table + " t USING (VALUES (CAST(? AS BIGINT), " + source + ")) s(" + columns
                    + ") ON " + matched + " WHEN MATCHED THEN UPDATE SET " + counter + " = t." + counter + " + s."
                    + counter + " WHEN NOT MATCHED THEN INSERT (" + columns + ") VALUES (s." + counter + ", "
                    + values + ")";
        }

        @Override
        public String primaryKeyHint(Handle handle, String table) {
            // H2 names the index itself; a range of the key would otherwise be read through another index whole.
            String name = handle.createQuery("SELECT INDEX_NAME FROM INFORMATION_SCHEMA.INDEXES WHERE TABLE_SCHEMA = "
                    + "'PUBLIC' AND TABLE_NAME = :table AND INDEX_TYPE_NAME = 'PRIMARY KEY'")
                    .bind("table", table.toUpperCase(Locale.ROOT)).mapTo(String.class).one();
            if (!name.matches("[A-Za-z0-9_]+")) {
                throw new IllegalStateException("unexpected primary key index name: " + name);
            }
            return " USE INDEX (" + name + ")";
        }

        @Override
        public boolean sharedByInstances() {
            return false; // the data directory is locked by the one process that opened it
        }
    },

    /** A PostgreSQL server, named by HEXAFLOW_DATABASE_URL. */
    POSTGRESQL {
        @Override
        public String upsert(String table, String keys, String columns, String values) {
            List<String> keyList = names(keys);
            String updates = names(columns).stream().filter(column -> !keyList.contains(column))
                    .map(column -> column + " = EXCLUDED." + column).collect(Collectors.joining(", "));
            return "INSERT INTO " + table + " (" + columns + ") VALUES (" + values + ") ON CONFLICT (" + keys + ") "
                    + (updates.isEmpty() ? "DO NOTHING" : "DO UPDATE SET " + updates);
        }

        @Override
        public String addTo(String table, String counter, String keys) {
            List<String> keyList = names(keys);
            String columns = counter + ", " + String.join(", ", keyList);
            String values = "?" + ", ?".repeat(keyList.size());
            // ON CONFLICT, not MERGE: PostgreSQL's MERGE may still fail on the key when two insert it at once
            return "INSERT INTO " + table + " (" + columns + ") VALUES (" + values + ") ON CONFLICT (" + keys
                    + ") DO UPDATE SET " + counter + " = " + table + "." + counter + " + EXCLUDED." + counter;
        }

        @Override
        public String primaryKeyHint(Handle handle, String table) {
            return ""; // PostgreSQL takes no hints, and its planner reads a range of the key through the key
        }

        @Override
        public boolean sharedByInstances() {
            return true; // several instances may run on one server and database
        }
    };

    /**
     * An insert that replaces the row of the same {@code keys} when there is one (H2's {@code MERGE ... KEY},
     * PostgreSQL's {@code ON CONFLICT ... DO UPDATE}).
     *
     * @param keys    the key columns, comma-separated, a unique constraint of the table
     * @param columns every column written, comma-separated
     * @param values  their values (parameters), comma-separated, in the order of {@code columns}
     */
    public abstract String upsert(String table, String keys, String columns, String values);

    /**
     * One statement that adds to a counter the row of the same {@code keys}, or inserts the row with the amount
     * when there is none; atomic where several write at once, where an update and then an insert is not (both
     * find no row, and the second insert fails on the key). Its parameters are the amount, then the keys in the
     * order of {@code keys}.
     *
     * @param counter the counter's column, a number
     * @param keys    the key columns, comma-separated, a unique constraint of the table; text
     */
    public abstract String addTo(String table, String counter, String keys);

    /**
     * What follows {@code FROM table} so that a range of its primary key is read through that key: empty where
     * the database finds that by itself.
     */
    public abstract String primaryKeyHint(Handle handle, String table);

    /**
     * Whether other processes may write the same database at once: then nothing read may be trusted in memory,
     * since this process is not told when another one changes it, and a count must be kept in its row.
     */
    public abstract boolean sharedByInstances();

    private static List<String> names(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::strip).toList();
    }

    /** The dialect of a JDBC URL: {@code jdbc:h2:} or {@code jdbc:postgresql:}. */
    public static SqlDialect ofJdbcUrl(String url) {
        if (url.startsWith("jdbc:h2:")) {
            return H2;
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        throw new IllegalArgumentException("not an H2 or PostgreSQL JDBC URL: " + url);
    }

    /** The dialect set on {@code jdbi}, H2 when none was. */
    public static SqlDialect of(Jdbi jdbi) {
        return jdbi.getConfig(Setting.class).dialect;
    }

    /** Makes this the dialect of {@code jdbi}, and of every handle it opens after. */
    public void applyTo(Jdbi jdbi) {
        jdbi.getConfig(Setting.class).dialect = this;
    }

    /** The dialect as a setting of a Jdbi, so that repositories take it from the Jdbi they are given. */
    public static final class Setting implements JdbiConfig<Setting> {
        private SqlDialect dialect = H2;

        public Setting() {
        }

        private Setting(SqlDialect dialect) {
            this.dialect = dialect;
        }

        @Override
        public Setting createCopy() {
            return new Setting(dialect);
        }
    }
}
