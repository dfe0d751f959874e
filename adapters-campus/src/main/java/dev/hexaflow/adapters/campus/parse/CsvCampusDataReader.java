package dev.hexaflow.adapters.campus.parse;

import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import dev.hexaflow.domain.text.CsvText;
import dev.hexaflow.domain.text.CsvText.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads CSV ({@link CsvText}): a header row of field names, then one record per row. An empty field is null.
 * Errors name the line a record starts on.
 */
final class CsvCampusDataReader {

    List<CampusRecord> read(FeedMethod dataSet, String text) {
        List<Row> rows;
        try {
            rows = CsvText.rows(text);
        } catch (CsvText.CsvException e) {
            throw new InvalidCampusDataException(e.line(), null, e.getMessage());
        }
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
}
