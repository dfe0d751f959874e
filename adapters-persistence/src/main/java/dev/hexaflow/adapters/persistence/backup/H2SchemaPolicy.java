package dev.hexaflow.adapters.persistence.backup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which statements of an H2 database's schema a Hexaflow database may hold. H2 keeps its schema as SQL statements
 * and runs every one of them when it opens the file, so a statement is what the file makes H2 do: a trigger or an
 * alias loads, compiles and runs Java, a linked table connects to another JDBC URL, a view or a default calls
 * functions (some read and write files). Hexaflow's own schema is tables, indexes, constraints, identity sequences,
 * the {@code SA} user and numeric settings; this admits those and nothing else, by form and by word, rather than
 * looking for the harmful ones: a statement passes only when it starts as one of those does, every bare word in it is
 * one those use, and a parenthesis follows only a type's size, a key's column list or the table a statement names.
 * No function is named in the vocabulary, so no expression here can call one.
 */
final class H2SchemaPolicy {

    private static final Set<String> VOCABULARY = Set.of(
            // statements and clauses
            "CREATE", "ALTER", "ADD", "SET", "USER", "IF", "NOT", "EXISTS", "SALT", "HASH", "ADMIN", "PASSWORD",
            "CACHED", "TABLE", "PRIMARY", "KEY", "ON", "INDEX", "UNIQUE", "NULLS", "DISTINCT", "FIRST", "LAST", "ASC",
            "DESC", "CONSTRAINT", "FOREIGN", "REFERENCES", "CASCADE", "RESTRICT", "NO", "ACTION", "DELETE", "UPDATE",
            "NOCHECK", "SEQUENCE", "START", "RESTART", "WITH", "INCREMENT", "BY", "MINVALUE", "MAXVALUE", "CYCLE",
            "CACHE", "BELONGS_TO_TABLE", "AS", "GENERATED", "ALWAYS", "IDENTITY", "DEFAULT", "NULL", "TRUE", "FALSE",
            "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "CURRENT_DATE",
            // data types, as H2 writes them
            "CHARACTER", "VARYING", "LARGE", "OBJECT", "BINARY", "BIGINT", "INTEGER", "SMALLINT", "TINYINT",
            "BOOLEAN", "DOUBLE", "PRECISION", "REAL", "NUMERIC", "DECIMAL", "DECFLOAT", "DATE", "TIME", "TIMESTAMP",
            "ZONE", "UUID", "JSON");

    /** Settings H2 keeps in the schema that take a number and load nothing. */
    private static final Set<String> SETTINGS = Set.of("CREATE_BUILD", "WRITE_DELAY", "CACHE_SIZE",
            "DEFAULT_LOCK_TIMEOUT", "MAX_MEMORY_ROWS", "MAX_MEMORY_UNDO", "MAX_LENGTH_INPLACE_LOB", "RETENTION_TIME",
            "DB_CLOSE_DELAY", "TRACE_MAX_FILE_SIZE");

    /** Words a parenthesis may follow: a type's size or precision, a key's columns, an identity's options. */
    private static final Set<String> BEFORE_PARENTHESIS = Set.of("VARYING", "CHARACTER", "BINARY", "NUMERIC",
            "DECIMAL", "DECFLOAT", "TIMESTAMP", "TIME", "KEY", "DISTINCT", "IDENTITY");

    /** Words a table's name follows when a parenthesis comes after the name: its columns, not a call. */
    private static final Set<String> BEFORE_TABLE_NAME = Set.of("TABLE", "ON", "REFERENCES");

    private static final List<List<String>> FORMS = List.of(List.of("CREATE", "CACHED", "TABLE"),
            List.of("CREATE", "PRIMARY", "KEY"), List.of("CREATE", "INDEX"), List.of("CREATE", "UNIQUE"),
            List.of("ALTER", "TABLE"), List.of("CREATE", "SEQUENCE"), List.of("CREATE", "USER"));

    /** Words before a created object's kind that say how it is made, not what it is. */
    private static final Set<String> MANNER = Set.of("FORCE", "OR", "REPLACE", "CACHED", "MEMORY", "LOCAL", "GLOBAL",
            "TEMPORARY", "UNIQUE", "NULLS", "DISTINCT", "NOT", "IF", "EXISTS", "MATERIALIZED");

    private H2SchemaPolicy() {
    }

    /**
     * Why the schema statement is not one a Hexaflow database holds, naming the object it makes ("trigger
     * "PUBLIC"."MARK""); empty when it is one.
     */
    static Optional<String> refusal(String sql) {
        // Names come from the file: nothing in them may break the one line an operator and the log read.
        return reason(sql).map(reason -> reason.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString());
    }

    private static Optional<String> reason(String sql) {
        List<Token> tokens = new ArrayList<>();
        try {
            tokenize(sql, tokens);
        } catch (IllegalArgumentException e) {
            return Optional.of(describe(sql, tokens) + ", which holds " + e.getMessage());
        }
        if (tokens.isEmpty()) {
            return Optional.of("an empty schema statement");
        }
        if (tokens.get(0).isWord("SET")) {
            boolean numeric = tokens.size() == 3 && tokens.get(1).kind == Kind.WORD
                    && SETTINGS.contains(tokens.get(1).upper()) && tokens.get(2).kind == Kind.NUMBER;
            return numeric ? Optional.empty()
                    : Optional.of("the setting " + (tokens.size() > 1 ? tokens.get(1).text : "SET"));
        }
        if (FORMS.stream().noneMatch(form -> startsWith(tokens, form))) {
            return Optional.of(describe(sql, tokens));
        }
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            if (token.kind == Kind.WORD && !VOCABULARY.contains(token.upper())) {
                return Optional.of(describe(sql, tokens) + ", which uses " + token.upper());
            }
            if (token.isPunctuation('(')) {
                Optional<String> call = parenthesis(tokens, i);
                if (call.isPresent()) {
                    return Optional.of(describe(sql, tokens) + ", which " + call.get());
                }
            }
        }
        return Optional.empty();
    }

    /** Empty when the parenthesis at {@code at} opens a size, a column list or a key's columns; else what it does. */
    private static Optional<String> parenthesis(List<Token> tokens, int at) {
        if (at == 0) {
            return Optional.of("opens with a parenthesis");
        }
        Token before = tokens.get(at - 1);
        if (before.kind == Kind.WORD) {
            return BEFORE_PARENTHESIS.contains(before.upper()) ? Optional.empty()
                    : Optional.of("calls " + before.upper());
        }
        if (before.kind != Kind.QUOTED) {
            return Optional.of("holds an expression in parentheses");
        }
        int start = at - 1;
        while (start >= 2 && tokens.get(start - 1).isPunctuation('.') && tokens.get(start - 2).kind == Kind.QUOTED) {
            start -= 2;
        }
        boolean table = start >= 1 && tokens.get(start - 1).kind == Kind.WORD
                && BEFORE_TABLE_NAME.contains(tokens.get(start - 1).upper());
        return table ? Optional.empty() : Optional.of("calls " + name(tokens, start));
    }

    private static boolean startsWith(List<Token> tokens, List<String> form) {
        if (tokens.size() < form.size()) {
            return false;
        }
        for (int i = 0; i < form.size(); i++) {
            if (!tokens.get(i).isWord(form.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** "trigger "PUBLIC"."MARK"": the kind of object a statement makes and its name, for an operator to find. */
    private static String describe(String sql, List<Token> tokens) {
        if (tokens.size() >= 2 && (tokens.get(0).isWord("CREATE") || tokens.get(0).isWord("ALTER"))) {
            int i = 1;
            while (i < tokens.size() && tokens.get(i).kind == Kind.WORD && MANNER.contains(tokens.get(i).upper())) {
                i++;
            }
            if (i < tokens.size() && tokens.get(i).kind == Kind.WORD) {
                String kind = tokens.get(i++).upper().toLowerCase(Locale.ROOT);
                // "linked table", "primary key": the kinds H2 names in two words.
                if ((kind.equals("linked") || kind.equals("primary")) && i < tokens.size()
                        && tokens.get(i).kind == Kind.WORD) {
                    kind += " " + tokens.get(i++).upper().toLowerCase(Locale.ROOT);
                }
                return kind + (i < tokens.size() && tokens.get(i).kind == Kind.QUOTED ? " " + name(tokens, i) : "");
            }
        }
        String start = sql.strip().replaceAll("\\s+", " ");
        return "the statement \"" + (start.length() > 60 ? start.substring(0, 60) + "..." : start) + "\"";
    }

    /** The qualified name starting at {@code at}, as the statement writes it. */
    private static String name(List<Token> tokens, int at) {
        StringBuilder name = new StringBuilder(tokens.get(at).text);
        for (int i = at + 1; i + 1 < tokens.size() && tokens.get(i).isPunctuation('.')
                && tokens.get(i + 1).kind == Kind.QUOTED; i += 2) {
            name.append('.').append(tokens.get(i + 1).text);
        }
        return name.length() > 120 ? name.substring(0, 120) + "..." : name.toString();
    }

    private enum Kind { WORD, QUOTED, TEXT, NUMBER, PUNCTUATION }

    private record Token(Kind kind, String text) {
        String upper() {
            return text.toUpperCase(Locale.ROOT);
        }

        boolean isWord(String word) {
            return kind == Kind.WORD && upper().equals(word);
        }

        boolean isPunctuation(char c) {
            return kind == Kind.PUNCTUATION && text.charAt(0) == c;
        }
    }

    /**
     * H2's tokens as its schema statements use them: words, "quoted names", 'text' (also U&'...' and X'...'),
     * numbers and {@code ( ) , .}, added to {@code tokens} as they are read. Anything else (a semicolon, an
     * operator, a comment, the {@code $$} of Java source) is no part of such a statement and is refused here.
     */
    private static void tokenize(String sql, List<Token> tokens) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
                i++;
            } else if (c == '\'') {
                i = quoted(sql, i, '\'', Kind.TEXT, tokens);
            } else if ((c == 'U' || c == 'u') && sql.startsWith("&'", i + 1)) {
                i = quoted(sql, i + 2, '\'', Kind.TEXT, tokens);
            } else if ((c == 'X' || c == 'x') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                i = quoted(sql, i + 1, '\'', Kind.TEXT, tokens);
            } else if (c == '"') {
                i = quoted(sql, i, '"', Kind.QUOTED, tokens);
            } else if (isDigit(c) || c == '-' && i + 1 < n && isDigit(sql.charAt(i + 1))) {
                int start = i++;
                while (i < n && (isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                tokens.add(new Token(Kind.NUMBER, sql.substring(start, i)));
            } else if (isLetter(c) || c == '_') {
                int start = i++;
                while (i < n && (isLetter(sql.charAt(i)) || isDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, sql.substring(start, i)));
            } else if (c == '(' || c == ')' || c == ',' || c == '.') {
                tokens.add(new Token(Kind.PUNCTUATION, String.valueOf(c)));
                i++;
            } else {
                throw new IllegalArgumentException(c == '$' ? "Java source ($$)"
                        : "the character '" + (c < ' ' || c > '~' ? String.format("\\u%04x", (int) c) : c) + "'");
            }
        }
    }

    /** Reads a token between {@code quote}s (doubled inside) from {@code open}; answers the index after it. */
    private static int quoted(String sql, int open, char quote, Kind kind, List<Token> tokens) {
        StringBuilder text = new StringBuilder(kind == Kind.QUOTED ? "\"" : "");
        int i = open + 1;
        while (true) {
            int close = sql.indexOf(quote, i);
            if (close < 0) {
                throw new IllegalArgumentException("an unclosed " + (kind == Kind.QUOTED ? "name" : "text"));
            }
            text.append(sql, i, close);
            if (close + 1 < sql.length() && sql.charAt(close + 1) == quote) {
                text.append(quote).append(kind == Kind.QUOTED ? String.valueOf(quote) : "");
                i = close + 2;
            } else {
                tokens.add(new Token(kind, kind == Kind.QUOTED ? text.append('"').toString() : text.toString()));
                return close + 1;
            }
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetter(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
    }
}
