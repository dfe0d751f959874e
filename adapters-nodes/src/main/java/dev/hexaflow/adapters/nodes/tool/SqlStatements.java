package dev.hexaflow.adapters.nodes.tool;

import java.util.Locale;
import java.util.Set;

/**
 * What a SQL text is, read without a parser: its first keyword, and whether it holds more than one statement.
 * Quoted text ({@code '…'}, {@code "…"}, PostgreSQL's {@code $$…$$}) and comments are skipped, so a semicolon or
 * a keyword inside them counts for nothing.
 */
final class SqlStatements {

    /** The statements that read: these alone run on a read-only binding. */
    static final Set<String> READING = Set.of("SELECT", "WITH", "SHOW", "EXPLAIN", "VALUES", "TABLE");

    private SqlStatements() {
    }

    /** The first keyword, upper case, or "" when there is none. */
    static String firstKeyword(String sql) {
        String code = code(sql).strip();
        while (code.startsWith("(")) {
            code = code.substring(1).strip();
        }
        int end = 0;
        while (end < code.length() && Character.isLetter(code.charAt(end))) {
            end++;
        }
        return code.substring(0, end).toUpperCase(Locale.ROOT);
    }

    /** True when a semicolon is followed by anything but blanks (a second statement). */
    static boolean isSeveral(String sql) {
        String code = code(sql);
        int semicolon = code.indexOf(';');
        return semicolon >= 0 && !code.substring(semicolon + 1).replace(";", "").isBlank();
    }

    /** The text with quoted parts and comments blanked out. */
    private static String code(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"' || c == '`') {
                end = sql.indexOf(c, i + 1);
            } else if (sql.startsWith("--", i)) {
                end = sql.indexOf('\n', i);
            } else if (sql.startsWith("/*", i)) {
                end = sql.indexOf("*/", i + 2);
                end = end < 0 ? -1 : end + 1;
            } else if (sql.startsWith("$$", i)) {
                end = sql.indexOf("$$", i + 2);
                end = end < 0 ? -1 : end + 1;
            } else {
                out.append(c);
                i++;
                continue;
            }
            out.append(' ');
            i = end < 0 ? sql.length() : end + 1;
        }
        return out.toString();
    }
}
