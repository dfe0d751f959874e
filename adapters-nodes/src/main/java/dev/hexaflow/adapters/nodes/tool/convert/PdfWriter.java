package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.Block;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.CodeBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.HeadingBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.ItemBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.ParagraphBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.TableBlockOf;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/**
 * Markdown as a PDF (PDFBox) in the standard Helvetica and Courier fonts on A4: headings in bold by level,
 * paragraphs and list items wrapped to the page, code in Courier, tables as equal columns with their cells wrapped.
 * Not drawn: images, links as links (their text is kept), colours; the standard fonts show Latin-1 and a few
 * typographic marks, so any other character (Chinese, emoji) is drawn as {@code ?}.
 */
final class PdfWriter {

    private static final PDType1Font REGULAR = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
    private static final PDType1Font BOLD = new PDType1Font(Standard14Fonts.FontName.HELVETICA_BOLD);
    private static final PDType1Font MONO = new PDType1Font(Standard14Fonts.FontName.COURIER);
    private static final float MARGIN = 50;
    private static final float[] HEADING_SIZES = {20, 16, 14, 13, 12, 11};
    private static final String TYPOGRAPHIC = "\u2022\u2013\u2014\u2018\u2019\u201c\u201d\u20ac\u2026";

    private final PDDocument document;
    private final int maxPages;
    private PDPageContentStream page;
    private float y;

    private PdfWriter(PDDocument document, int maxPages) {
        this.document = document;
        this.maxPages = maxPages;
    }

    static byte[] write(List<Block> blocks, int maxPages) {
        try (PDDocument document = new PDDocument(); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            PdfWriter writer = new PdfWriter(document, maxPages);
            writer.newPage();
            for (Block block : blocks) {
                writer.add(block);
            }
            writer.page.close();
            document.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void add(Block block) throws IOException {
        if (block instanceof HeadingBlock heading) {
            y -= 6;
            text(heading.text(), BOLD, HEADING_SIZES[Math.min(heading.level(), 6) - 1], 0);
        } else if (block instanceof ParagraphBlock paragraph) {
            text(MarkdownBlocks.plain(paragraph.spans()), REGULAR, 11, 0);
        } else if (block instanceof ItemBlock item) {
            String mark = item.number() == 0 ? "\u2022 " : item.number() + ". ";
            text(mark + MarkdownBlocks.plain(item.spans()), REGULAR, 11, 18 * item.depth());
        } else if (block instanceof CodeBlock code) {
            for (String line : code.text().split("\n", -1)) {
                text(line, MONO, 9, 10);
            }
        } else if (block instanceof TableBlockOf table) {
            row(table.header(), BOLD);
            for (List<String> cells : table.rows()) {
                row(cells, REGULAR);
            }
        }
        y -= 4;
    }

    private void text(String text, PDType1Font font, float size, float indent) throws IOException {
        for (String paragraph : shown(text).split("\n", -1)) {
            for (String line : wrap(paragraph, font, size, width() - indent)) {
                room(size * 1.3f);
                draw(line, font, size, MARGIN + indent, y);
                y -= size * 1.3f;
            }
        }
    }

    private void row(List<String> cells, PDType1Font font) throws IOException {
        int columns = Math.max(1, cells.size());
        float column = width() / columns;
        List<List<String>> wrapped = new ArrayList<>();
        int lines = 1;
        for (String cell : cells) {
            List<String> cellLines = wrap(shown(cell).replace('\n', ' '), font, 10, column - 6);
            wrapped.add(cellLines);
            lines = Math.max(lines, cellLines.size());
        }
        room(Math.min(lines, 40) * 13f);
        for (int c = 0; c < wrapped.size(); c++) {
            float lineY = y;
            for (String line : wrapped.get(c)) {
                draw(line, font, 10, MARGIN + c * column, lineY);
                lineY -= 13f;
            }
        }
        y -= lines * 13f + 2;
    }

    private void draw(String line, PDType1Font font, float size, float x, float atY) throws IOException {
        if (atY < MARGIN) {
            return;
        }
        page.beginText();
        page.setFont(font, size);
        page.newLineAtOffset(x, atY);
        page.showText(line);
        page.endText();
    }

    private void room(float needed) throws IOException {
        if (y - needed < MARGIN) {
            page.close();
            newPage();
        }
    }

    private void newPage() throws IOException {
        if (document.getNumberOfPages() >= maxPages) {
            throw new ConversionLimits.Exceeded("The PDF would have more than " + maxPages + " pages, more than this tool makes");
        }
        PDPage next = new PDPage(PDRectangle.A4);
        document.addPage(next);
        page = new PDPageContentStream(document, next);
        y = PDRectangle.A4.getHeight() - MARGIN;
    }

    private static float width() {
        return PDRectangle.A4.getWidth() - 2 * MARGIN;
    }

    /** Words filled into lines no wider than {@code width}; a word wider than a line is cut. */
    static List<String> wrap(String text, PDType1Font font, float size, float width) throws IOException {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            String candidate = line.isEmpty() ? word : line + " " + word;
            if (line.isEmpty() || widthOf(candidate, font, size) <= width) {
                line.setLength(0);
                line.append(candidate);
            } else {
                lines.add(line.toString());
                line.setLength(0);
                line.append(word);
            }
            while (widthOf(line.toString(), font, size) > width && line.length() > 1) {
                int cut = line.length() - 1;
                while (cut > 1 && widthOf(line.substring(0, cut), font, size) > width) {
                    cut = Math.max(1, cut * 3 / 4);
                }
                lines.add(line.substring(0, cut));
                line.delete(0, cut);
            }
        }
        lines.add(line.toString());
        return lines;
    }

    private static float widthOf(String text, PDType1Font font, float size) throws IOException {
        return font.getStringWidth(text) / 1000 * size;
    }

    /** What the standard fonts can show: tabs as spaces, and {@code ?} for what they cannot. */
    static String shown(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c == '\n') {
                out.append('\n');
            } else if (c == '\t') {
                out.append("    ");
            } else if ((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff) || TYPOGRAPHIC.indexOf(c) >= 0) {
                out.appendCodePoint(c);
            } else if (!Character.isISOControl(c)) {
                out.append('?');
            }
        });
        return out.toString();
    }
}
