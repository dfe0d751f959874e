package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.domain.text.CsvText;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.poi.openxml4j.util.ZipSecureFile;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.DateUtil;
import org.apache.poi.ss.usermodel.FormulaError;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.ss.usermodel.WorkbookFactory;

/**
 * A workbook's sheets as pandas reads them with {@code dtype=str}: the first row names the columns (an empty name
 * is {@code Unnamed: i}, a repeated one {@code name.1}), each later row is a record of its cells as text (a whole
 * number without its {@code .0}, a date as {@code 2020-02-20 00:00:00}, a boolean as {@code True}), an empty cell
 * null. Rows with no value at all are left out. A CSV file is one sheet.
 */
final class WorkbookRecords {

    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    static {
        // A zip entry of a workbook inflates to 200 MB at most (POI's own default is 4 GB), whatever its ratio. Set
        // here, before the first workbook is read, rather than when the tool is built: POI's zip and logging classes
        // then load at the tool's first use, not at every server's start.
        ZipSecureFile.setMaxEntrySize(200L * 1024 * 1024);
    }

    private WorkbookRecords() {
    }

    /** Each sheet's name and records, in the workbook's order. */
    static Map<String, List<Map<String, String>>> read(byte[] content, boolean csv, ConversionLimits limits)
            throws IOException {
        Map<String, List<Map<String, String>>> sheets = new LinkedHashMap<>();
        int[] rows = {0};
        if (csv) {
            List<List<String>> table = new ArrayList<>();
            CsvText.rows(new String(content, StandardCharsets.UTF_8).replaceFirst("^\uFEFF", ""), row -> {
                limits.rows(++rows[0]);
                table.add(row.cells());
            });
            sheets.put("Sheet1", records(table));
            return sheets;
        }
        try (Workbook workbook = WorkbookFactory.create(new ByteArrayInputStream(content))) {
            for (Sheet sheet : workbook) {
                List<List<String>> table = new ArrayList<>();
                for (Row row : sheet) {
                    limits.rows(++rows[0]);
                    table.add(cells(row));
                }
                sheets.put(sheet.getSheetName(), records(table));
            }
        }
        return sheets;
    }

    private static List<String> cells(Row row) {
        List<String> cells = new ArrayList<>();
        for (int c = 0; c < row.getLastCellNum(); c++) {
            Cell cell = row.getCell(c);
            cells.add(cell == null ? null : text(cell, cell.getCellType()));
        }
        return cells;
    }

    private static String text(Cell cell, CellType type) {
        return switch (type) {
            case STRING -> cell.getStringCellValue();
            case BOOLEAN -> cell.getBooleanCellValue() ? "True" : "False";
            case NUMERIC -> DateUtil.isCellDateFormatted(cell)
                    ? cell.getLocalDateTimeCellValue().format(DATE_TIME) : number(cell.getNumericCellValue());
            case FORMULA -> text(cell, cell.getCachedFormulaResultType());
            case ERROR -> FormulaError.forInt(cell.getErrorCellValue()).getString();
            default -> null;
        };
    }

    private static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    private static List<Map<String, String>> records(List<List<String>> table) {
        List<List<String>> rows = table.stream().filter(row -> row.stream().anyMatch(cell -> cell != null
                && !cell.isEmpty())).toList();
        List<Map<String, String>> records = new ArrayList<>();
        if (rows.isEmpty()) {
            return records;
        }
        List<String> names = names(rows.get(0), rows.stream().mapToInt(List::size).max().orElse(0));
        for (List<String> row : rows.subList(1, rows.size())) {
            Map<String, String> record = new LinkedHashMap<>();
            for (int c = 0; c < names.size(); c++) {
                String cell = c < row.size() ? row.get(c) : null;
                record.put(names.get(c), cell == null || cell.isEmpty() ? null : cell);
            }
            records.add(record);
        }
        return records;
    }

    private static List<String> names(List<String> header, int width) {
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int c = 0; c < width; c++) {
            String given = c < header.size() && header.get(c) != null && !header.get(c).isEmpty() ? header.get(c)
                    : "Unnamed: " + c;
            String name = given;
            for (int n = 1; !seen.add(name); n++) {
                name = given + "." + n;
            }
            names.add(name);
        }
        return names;
    }
}
