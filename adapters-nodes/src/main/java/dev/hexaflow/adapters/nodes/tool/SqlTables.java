package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.domain.workflow.Values;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A query's rows as the SQL plugins answer them: records of JSON values, a Markdown table, CSV. */
final class SqlTables {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private SqlTables() {
    }

    /** The rows as records, column order kept; more than {@code maxRows} fails the tool. */
    static List<Map<String, Object>> records(ResultSet rows, int maxRows) throws SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        List<Map<String, Object>> records = new ArrayList<>();
        while (rows.next()) {
            if (records.size() == maxRows) {
                throw new dev.hexaflow.workflow.port.out.ToolRunner.ToolException("The query answered more than "
                        + maxRows + " rows, the limit (HEXAFLOW_SQL_MAX_ROWS); narrow it or add a LIMIT");
            }
            Map<String, Object> record = new LinkedHashMap<>();
            for (int column = 1; column <= meta.getColumnCount(); column++) {
                record.put(meta.getColumnLabel(column), value(rows.getObject(column)));
            }
            records.add(record);
        }
        return records;
    }

    /**
     * A JDBC value as JSON has it, whole numbers as longs and others as doubles (as the engine's values are), dates
     * as the plugins write them (pandas' formats), the rest as text.
     */
    private static Object value(Object value) throws SQLException {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Double) {
            return value;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.scale() <= 0 ? (Object) decimal.longValue() : (Object) decimal.doubleValue();
        }
        if (value instanceof java.math.BigInteger big && big.bitLength() > 63) {
            return big.toString();
        }
        if (value instanceof Float number) {
            return number.doubleValue();
        }
        if (value instanceof Number number) {
            return number.longValue();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.toLocalDateTime().format(TIMESTAMP);
        }
        if (value instanceof java.time.LocalDateTime time) {
            return time.format(TIMESTAMP);
        }
        if (value instanceof java.time.OffsetDateTime time) {
            return time.format(TIMESTAMP);
        }
        if (value instanceof java.sql.Date || value instanceof java.time.LocalDate) {
            return value.toString();
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        if (value instanceof Clob clob) {
            return clob.getSubString(1, (int) Math.min(Integer.MAX_VALUE, clob.length()));
        }
        if (value instanceof Array array) {
            List<Object> items = new ArrayList<>();
            for (Object item : (Object[]) array.getArray()) {
                items.add(value(item));
            }
            return items;
        }
        return value.toString();
    }

    /** A GitHub-style Markdown table, as tabulate's {@code github} format writes one. */
    static String markdown(List<Map<String, Object>> records, List<String> columns) {
        List<List<String>> cells = new ArrayList<>();
        cells.add(columns);
        for (Map<String, Object> record : records) {
            cells.add(columns.stream().map(column -> text(record.get(column)).replace("|", "\\|")
                    .replace("\n", " ")).toList());
        }
        int[] widths = new int[columns.size()];
        for (List<String> row : cells) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < cells.size(); r++) {
            out.append('|');
            for (int i = 0; i < widths.length; i++) {
                out.append(' ').append(pad(cells.get(r).get(i), widths[i])).append(" |");
            }
            out.append('\n');
            if (r == 0) {
                out.append('|');
                for (int width : widths) {
                    out.append("-".repeat(width + 2)).append('|');
                }
                out.append('\n');
            }
        }
        return out.toString().stripTrailing();
    }

    /** RFC 4180 CSV with a header row. */
    static String csv(List<Map<String, Object>> records, List<String> columns) {
        StringBuilder out = new StringBuilder();
        out.append(String.join(",", columns.stream().map(SqlTables::csvCell).toList())).append('\n');
        for (Map<String, Object> record : records) {
            out.append(String.join(",", columns.stream().map(c -> csvCell(text(record.get(c)))).toList()))
                    .append('\n');
        }
        return out.toString();
    }

    private static String csvCell(String text) {
        return text.contains(",") || text.contains("\"") || text.contains("\n")
                ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    private static String text(Object value) {
        return value == null ? "" : value instanceof String s ? s : Values.text(value);
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(width - text.length());
    }
}
