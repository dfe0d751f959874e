package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.Block;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.HeadingBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.TableBlockOf;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.WorkbookUtil;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/**
 * Markdown tables as a workbook and as CSV, as md_exporter makes them: one sheet (or one CSV file) per table, the
 * i-th heading (levels 1 to 5, cut to 30 characters) naming the i-th sheet, else {@code SheetN}; every cell text,
 * or, with {@code force_text_value} off, a number where the cell reads as one.
 */
final class SheetWriter {

    private SheetWriter() {
    }

    static List<TableBlockOf> tablesOf(List<Block> blocks) {
        List<TableBlockOf> tables = MarkdownBlocks.tables(blocks).stream()
                .filter(table -> !table.header().isEmpty() || !table.rows().isEmpty()).toList();
        if (tables.isEmpty()) {
            throw new ToolException("Failed to parse markdown to tables, exception: No tables found");
        }
        return tables;
    }

    static byte[] xlsx(List<Block> blocks, boolean forceText) {
        List<TableBlockOf> tables = tablesOf(blocks);
        List<String> headings = new ArrayList<>();
        for (Block block : blocks) {
            if (block instanceof HeadingBlock heading && heading.level() <= 5 && !heading.text().isBlank()) {
                String text = heading.text().strip();
                headings.add(text.length() > 30 ? text.substring(0, 30) : text);
            }
        }
        try (XSSFWorkbook workbook = new XSSFWorkbook(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            Set<String> names = new HashSet<>();
            for (int i = 0; i < tables.size(); i++) {
                String wanted = i < headings.size() ? WorkbookUtil.createSafeSheetName(headings.get(i))
                        : "Sheet" + (i + 1);
                String name = wanted;
                for (int n = 2; !names.add(name.toLowerCase(java.util.Locale.ROOT)); n++) {
                    name = wanted.substring(0, Math.min(wanted.length(), 27)) + " " + n;
                }
                sheet(workbook.createSheet(name), tables.get(i), forceText);
            }
            workbook.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sheet(Sheet sheet, TableBlockOf table, boolean forceText) {
        Row header = sheet.createRow(0);
        for (int c = 0; c < table.header().size(); c++) {
            header.createCell(c).setCellValue(table.header().get(c));
        }
        for (int r = 0; r < table.rows().size(); r++) {
            Row row = sheet.createRow(r + 1);
            List<String> cells = table.rows().get(r);
            for (int c = 0; c < cells.size(); c++) {
                String text = cells.get(c);
                Double number = forceText ? null : number(text);
                if (number != null) {
                    row.createCell(c).setCellValue(number);
                } else {
                    row.createCell(c).setCellValue(text);
                }
            }
        }
    }

    private static Double number(String text) {
        try {
            return text.isBlank() ? null : Double.valueOf(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Each table as CSV text: RFC 4180 quoting where a cell needs it, lines ending in a line feed. */
    static List<String> csv(List<Block> blocks) {
        List<String> files = new ArrayList<>();
        for (TableBlockOf table : tablesOf(blocks)) {
            StringBuilder text = new StringBuilder();
            line(text, table.header());
            table.rows().forEach(row -> line(text, row));
            files.add(text.toString());
        }
        return files;
    }

    private static void line(StringBuilder text, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            if (i > 0) {
                text.append(',');
            }
            if (cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r")) {
                text.append('"').append(cell.replace("\"", "\"\"")).append('"');
            } else {
                text.append(cell);
            }
        }
        text.append('\n');
    }
}
