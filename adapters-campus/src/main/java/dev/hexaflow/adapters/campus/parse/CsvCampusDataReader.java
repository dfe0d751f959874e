package dev.hexaflow.adapters.campus.parse;

import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads RFC 4180 CSV: a header row of field names, then one record per row; quoted fields may hold commas,
 * quotes ("") and line breaks. An empty field is null. Errors name the line a record starts on.
 */
final class CsvCampusDataReader {

    List<CampusRecord> read(FeedMethod dataSet, String text) {
        List<Row> rows = new Tokenizer(text).rows();
        if (rows.isEmpty()) {
            throw new InvalidCampusDataException(1, null, "the file is empty; a header row of field names is needed");
        }
        List<String> columns = header(dataSet, rows.get(0));
        List<CampusRecord> records = new ArrayList<>(rows.size() - 1);
        for (Row row : rows.subList(1, rows.size())) {
            if (row.isBlank()) {
                continue;
            }
            if (row.cells().size() != columns.size()) {
                throw new InvalidCampusDataException(row.line(), null,
                        "expected " + columns.size() + " fields as in the header, found " + row.cells().size());
            }
            Map<String, String> values = new HashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                String cell = row.cells().get(i);
                values.put(columns.get(i), cell.isEmpty() ? null : cell);
            }
            records.add(RecordSchema.build(dataSet, values, row.line()));
        }
        return records;
    }

    private static List<String> header(FeedMethod dataSet, Row header) {
        List<String> columns = new ArrayList<>();
        for (String cell : header.cells()) {
            String name = cell.trim();
            String field = RecordSchema.field(dataSet, name).orElseThrow(() -> new InvalidCampusDataException(
                    header.line(), name, "not a field of " + dataSet.resource() + "; the fields are "
                            + String.join(", ", RecordSchema.fields(dataSet))));
            if (columns.contains(field)) {
                throw new InvalidCampusDataException(header.line(), name, "the column appears twice");
            }
            columns.add(field);
        }
        return columns;
    }

    private record Row(int line, List<String> cells) {
        boolean isBlank() {
            return cells.size() == 1 && cells.get(0).isBlank();
        }
    }

    /** Splits the text into rows of cells, keeping the line each row starts on. */
    private static final class Tokenizer {
        private final String text;
        private int pos;
        private int line = 1;

        Tokenizer(String text) {
            this.text = text.startsWith("\uFEFF") ? text.substring(1) : text;
        }

        List<Row> rows() {
            List<Row> rows = new ArrayList<>();
            while (pos < text.length()) {
                int start = line;
                rows.add(new Row(start, row()));
            }
            return rows;
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
                    throw new InvalidCampusDataException(line, null,
                            "a quote inside an unquoted field; quote the whole field and double the quote");
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
                        throw new InvalidCampusDataException(line, null, "text after the closing quote of a field");
                    }
                    return cell.toString();
                }
                if (c == '\n') {
                    line++;
                }
                cell.append(c);
            }
            throw new InvalidCampusDataException(opened, null, "a quoted field is never closed");
        }
    }
}
