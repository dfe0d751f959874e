package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.Block;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.CodeBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.HeadingBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.ItemBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.ParagraphBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.Span;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.TableBlockOf;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFRun;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;

/**
 * Markdown as a Word document (Apache POI): headings in bold at a size by their level (and named {@code HeadingN},
 * the style a template defines), paragraphs with their bold, italic and code spans, list items indented with their
 * bullet or number, code in a monospaced font, tables with a bold header row.
 */
final class DocxWriter {

    private static final int[] HEADING_SIZES = {20, 16, 14, 13, 12, 11};

    private DocxWriter() {
    }

    /** @param template a Word file whose styles (and page set-up) the document takes, its text dropped; or null */
    static byte[] write(List<Block> blocks, byte[] template) {
        try (XWPFDocument document = open(template); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (Block block : blocks) {
                add(document, block);
            }
            document.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static XWPFDocument open(byte[] template) throws IOException {
        if (template == null) {
            return new XWPFDocument();
        }
        XWPFDocument document;
        try {
            document = new XWPFDocument(new java.io.ByteArrayInputStream(template));
        } catch (IOException | RuntimeException e) {
            throw new ToolException("Not a valid file for docx template file");
        }
        while (!document.getBodyElements().isEmpty()) {
            document.removeBodyElement(0);
        }
        return document;
    }

    private static void add(XWPFDocument document, Block block) {
        if (block instanceof HeadingBlock heading) {
            XWPFParagraph paragraph = document.createParagraph();
            paragraph.setStyle("Heading" + heading.level());
            XWPFRun run = paragraph.createRun();
            run.setBold(true);
            run.setFontSize(HEADING_SIZES[Math.min(heading.level(), HEADING_SIZES.length) - 1]);
            run.setText(heading.text());
        } else if (block instanceof ParagraphBlock paragraph) {
            runs(document.createParagraph(), paragraph.spans());
        } else if (block instanceof ItemBlock item) {
            XWPFParagraph paragraph = document.createParagraph();
            paragraph.setIndentationLeft(360 * item.depth());
            paragraph.createRun().setText(item.number() == 0 ? "\u2022 " : item.number() + ". ");
            runs(paragraph, item.spans());
        } else if (block instanceof CodeBlock code) {
            XWPFParagraph paragraph = document.createParagraph();
            String[] lines = code.text().split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                XWPFRun run = paragraph.createRun();
                run.setFontFamily("Courier New");
                run.setText(lines[i]);
                if (i < lines.length - 1) {
                    run.addBreak();
                }
            }
        } else if (block instanceof TableBlockOf table) {
            table(document, table);
        } else {
            document.createParagraph().createRun().setText("");
        }
    }

    private static void runs(XWPFParagraph paragraph, List<Span> spans) {
        for (Span span : spans) {
            XWPFRun run = paragraph.createRun();
            run.setBold(span.bold());
            run.setItalic(span.italic());
            if (span.code()) {
                run.setFontFamily("Courier New");
            }
            if (span.text().equals("\n")) {
                run.addBreak();
            } else {
                run.setText(span.text());
            }
        }
    }

    private static void table(XWPFDocument document, TableBlockOf table) {
        int columns = Math.max(1, table.header().size());
        XWPFTable grid = document.createTable(table.rows().size() + 1, columns);
        fill(grid.getRow(0), table.header(), true);
        for (int r = 0; r < table.rows().size(); r++) {
            fill(grid.getRow(r + 1), table.rows().get(r), false);
        }
    }

    private static void fill(XWPFTableRow row, List<String> cells, boolean bold) {
        for (int c = 0; c < row.getTableCells().size() && c < cells.size(); c++) {
            XWPFParagraph paragraph = row.getCell(c).getParagraphs().get(0);
            XWPFRun run = paragraph.createRun();
            run.setBold(bold);
            run.setText(cells.get(c));
        }
    }
}
