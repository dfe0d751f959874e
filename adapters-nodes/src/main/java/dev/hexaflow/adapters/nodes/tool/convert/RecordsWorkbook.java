package dev.hexaflow.adapters.nodes.tool.convert;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * excel_tools' {@code json2excel}: a list of records is the sheet {@code Sheet1}, an object of lists one sheet per
 * key; the columns are the records' keys in the order they first appear; numbers and booleans stay numbers and
 * booleans, other values are their text. The workbook is named {@code filename} (default {@code Converted Data}),
 * spaces made underscores, and comes with the plugin's sentence. The {@code [format]} block's row heights and
 * column widths are read past, not applied.
 */
final class RecordsWorkbook {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RecordsWorkbook() {
    }

    static List<ToolMessage> run(Map<String, Object> arguments, ConversionLimits limits) {
        Object given = arguments.get("json_str");
        String text = limits.text("json_str", given == null ? "" : given instanceof String s ? s : Values.text(given));
        Map<String, Object> sheets = sheets(read(text));
        byte[] workbook;
        try {
            workbook = limits.output(write(sheets, limits));
        } catch (ToolException e) {
            throw e instanceof ConversionLimits.Exceeded ? e
                    : new ToolException("Error converting data to Excel: " + e.getMessage());
        }
        Object named = arguments.get("filename");
        String filename = (named == null || named.toString().isEmpty() ? "Converted Data" : named.toString())
                .replace(' ', '_') + ".xlsx";
        return List.of(new ToolMessage.Text("Excel file '" + filename + "' generated successfully"),
                new ToolMessage.Blob(workbook, PoiMdExporterToolRunner.XLSX, filename));
    }

    private static Object read(String text) {
        try {
            return JSON.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new ToolException("Invalid JSON format: " + e.getOriginalMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> sheets(Object payload) {
        if (payload instanceof List<?> list) {
            return Map.of("Sheet1", list);
        }
        if (payload instanceof Map<?, ?> map) {
            Map<String, Object> sheets = new LinkedHashMap<>((Map<String, Object>) map);
            sheets.remove("[format]");
            if (sheets.isEmpty()) {
                throw new ToolException("At least one sheet must be provided alongside the '[format]' block.");
            }
            return sheets;
        }
        throw new ToolException("JSON must be an array (single sheet) or object (multiple sheets).");
    }

    private static byte[] write(Map<String, Object> sheets, ConversionLimits limits) {
        try (XSSFWorkbook workbook = new XSSFWorkbook(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            int rows = 0;
            for (Map.Entry<String, Object> entry : sheets.entrySet()) {
                if (!(entry.getValue() instanceof List<?> records)) {
                    throw new ToolException("Value for sheet '" + entry.getKey() + "' must be a list of records.");
                }
                rows += records.size() + 1;
                limits.rows(rows);
                sheet(workbook.createSheet(entry.getKey()), records);
            }
            workbook.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw new ToolException(e.getMessage());
        }
    }

    private static void sheet(Sheet sheet, List<?> records) {
        List<String> columns = new ArrayList<>();
        for (Object record : records) {
            if (record instanceof Map<?, ?> map) {
                map.keySet().forEach(key -> {
                    if (!columns.contains(String.valueOf(key))) {
                        columns.add(String.valueOf(key));
                    }
                });
            }
        }
        Row header = sheet.createRow(0);
        for (int c = 0; c < columns.size(); c++) {
            header.createCell(c).setCellValue(columns.get(c));
        }
        for (int r = 0; r < records.size(); r++) {
            Row row = sheet.createRow(r + 1);
            Map<?, ?> record = records.get(r) instanceof Map<?, ?> map ? map : Map.of();
            for (int c = 0; c < columns.size(); c++) {
                Object value = record.get(columns.get(c));
                if (value instanceof Number number) {
                    row.createCell(c).setCellValue(number.doubleValue());
                } else if (value instanceof Boolean bool) {
                    row.createCell(c).setCellValue(bool);
                } else if (value != null) {
                    row.createCell(c).setCellValue(Values.text(value));
                }
            }
        }
    }
}
