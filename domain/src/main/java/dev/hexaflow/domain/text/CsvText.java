package dev.hexaflow.domain.text;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * RFC 4180 CSV read into rows of cells, each row with the line it starts on: quoted fields may hold commas,
 * doubled quotes and line breaks; a byte order mark is skipped; CRLF and LF both end rows.
 */
public final class CsvText {

    /** One row and the 1-based line it starts on. */
    public record Row(int line, List<String> cells) {
        public boolean isBlank() {
            return cells.size() == 1 && cells.get(0).isBlank();
        }
    }

    /** A CSV fault, at the line where it is. */
    public static final class CsvException extends RuntimeException {
        private final int line;

        public CsvException(int line, String message) {
            super(message);
            this.line = line;
        }

        public int line() {
            return line;
        }
    }

    private final String text;
    private int pos;
    private int line = 1;

    private CsvText(String text) {
        this.text = text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** @throws CsvException for a stray quote, text after a closing quote, or a quote never closed */
    public static List<Row> rows(String text) {
        List<Row> rows = new ArrayList<>();
        rows(text, rows::add);
        return rows;
    }

    /**
     * Each row in turn, as it is read: a caller that bounds what it makes of them stops at the row that passes
     * its bound without the rows after it being read or held.
     *
     * @throws CsvException for a stray quote, text after a closing quote, or a quote never closed
     */
    public static void rows(String text, Consumer<Row> each) {
        CsvText csv = new CsvText(text);
        while (csv.pos < csv.text.length()) {
            int start = csv.line;
            each.accept(new Row(start, csv.row()));
        }
    }

    private List<String> row() {
        List<String> cells = new ArrayList<>();
        while (true) {
            cells.add(cell());
            if (pos >= text.length()) {
                return cells;
            }
            char c = text.charAt(pos++);
            if (c == ',') {
                continue;
            }
            if (c == '\r' && pos < text.length() && text.charAt(pos) == '\n') {
                pos++;
            }
            line++;
            return cells;
        }
    }

    private String cell() {
        if (pos < text.length() && text.charAt(pos) == '"') {
            return quoted();
        }
        int start = pos;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ',' || c == '\n' || c == '\r') {
                break;
            }
            if (c == '"') {
                throw new CsvException(line, "a quote inside an unquoted field; quote the whole field and double "
                        + "the quote");
            }
            pos++;
        }
        return text.substring(start, pos);
    }

    private String quoted() {
        int opened = line;
        StringBuilder cell = new StringBuilder();
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                if (pos < text.length() && text.charAt(pos) == '"') {
                    cell.append('"');
                    pos++;
                    continue;
                }
                if (pos < text.length() && ",\r\n".indexOf(text.charAt(pos)) < 0) {
                    throw new CsvException(line, "text after the closing quote of a field");
                }
                return cell.toString();
            }
            if (c == '\n') {
                line++;
            }
            cell.append(c);
        }
        throw new CsvException(opened, "a quoted field is never closed");
    }
}
