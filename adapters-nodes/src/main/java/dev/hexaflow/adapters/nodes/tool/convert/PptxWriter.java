package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.Block;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.CodeBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.HeadingBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.ItemBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.ParagraphBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.RuleBlock;
import dev.hexaflow.adapters.nodes.tool.convert.MarkdownBlocks.TableBlockOf;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.awt.Rectangle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.poi.xslf.usermodel.SlideLayout;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xslf.usermodel.XSLFSlideLayout;
import org.apache.poi.xslf.usermodel.XSLFTable;
import org.apache.poi.xslf.usermodel.XSLFTableRow;
import org.apache.poi.xslf.usermodel.XSLFTextParagraph;
import org.apache.poi.xslf.usermodel.XSLFTextShape;

/**
 * Markdown slides in Pandoc's way, as md_exporter reads them: the slide level is the highest heading level directly
 * followed by content; a heading above it makes a title slide, one at it starts a slide with that title, a rule
 * ({@code ---}) starts a slide with none. Paragraphs, list items (indented by depth) and code go in the slide's body;
 * a table is a table of its own below the body.
 */
final class PptxWriter {

    private PptxWriter() {
    }

    /** @param template a presentation whose masters and layouts the slides take, its slides dropped; or null */
    static byte[] write(List<Block> blocks, byte[] template) {
        int level = slideLevel(blocks);
        try (XMLSlideShow show = open(template); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            XSLFSlideLayout titleOnly = layout(show, SlideLayout.TITLE);
            XSLFSlideLayout content = layout(show, SlideLayout.TITLE_AND_CONTENT);
            XSLFSlide slide = null;
            for (Block block : blocks) {
                if (block instanceof HeadingBlock heading && heading.level() < level) {
                    slide = show.createSlide(titleOnly);
                    title(slide, heading.text());
                    clear(slide, 1);
                    slide = null;
                } else if (block instanceof HeadingBlock heading) {
                    slide = slide(show, content, heading.text());
                } else if (block instanceof RuleBlock) {
                    slide = slide(show, content, "");
                } else {
                    if (slide == null) {
                        slide = slide(show, content, "");
                    }
                    add(slide, block);
                }
            }
            show.write(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static XMLSlideShow open(byte[] template) throws IOException {
        if (template == null) {
            return new XMLSlideShow();
        }
        XMLSlideShow show;
        try {
            show = new XMLSlideShow(new java.io.ByteArrayInputStream(template));
        } catch (IOException | RuntimeException e) {
            throw new ToolException("Not a valid file for pptx template file");
        }
        while (!show.getSlides().isEmpty()) {
            show.removeSlide(0);
        }
        if (show.getSlideMasters().isEmpty()) {
            throw new ToolException("Not a valid file for pptx template file");
        }
        return show;
    }

    /** The master's layout of the type, or its first when a template has none of that type. */
    private static XSLFSlideLayout layout(XMLSlideShow show, SlideLayout type) {
        XSLFSlideLayout layout = show.getSlideMasters().get(0).getLayout(type);
        return layout != null ? layout : show.getSlideMasters().get(0).getSlideLayouts()[0];
    }

    static int slideLevel(List<Block> blocks) {
        int level = 7;
        for (int i = 0; i + 1 < blocks.size(); i++) {
            if (blocks.get(i) instanceof HeadingBlock heading && !(blocks.get(i + 1) instanceof HeadingBlock)
                    && !(blocks.get(i + 1) instanceof RuleBlock)) {
                level = Math.min(level, heading.level());
            }
        }
        return level == 7 ? 1 : level;
    }

    private static XSLFSlide slide(XMLSlideShow show, XSLFSlideLayout layout, String title) {
        XSLFSlide slide = show.createSlide(layout);
        title(slide, title);
        clear(slide, 1);
        return slide;
    }

    private static void title(XSLFSlide slide, String title) {
        XSLFTextShape shape = slide.getPlaceholder(0);
        if (shape != null) {
            shape.setText(title);
        }
    }

    private static void clear(XSLFSlide slide, int placeholder) {
        XSLFTextShape body = slide.getPlaceholder(placeholder);
        if (body != null) {
            body.clearText();
        }
    }

    private static void add(XSLFSlide slide, Block block) {
        if (block instanceof TableBlockOf table) {
            table(slide, table);
            return;
        }
        XSLFTextShape body = slide.getPlaceholder(1);
        if (body == null) {
            return;
        }
        if (block instanceof ParagraphBlock paragraph) {
            line(body, MarkdownBlocks.plain(paragraph.spans()), 0, false);
        } else if (block instanceof ItemBlock item) {
            String mark = item.number() == 0 ? "" : item.number() + ". ";
            line(body, mark + MarkdownBlocks.plain(item.spans()), item.depth() - 1, item.number() == 0);
        } else if (block instanceof CodeBlock code) {
            for (String text : code.text().split("\n")) {
                line(body, text, 0, false).getTextRuns().get(0).setFontFamily("Courier New");
            }
        }
    }

    private static XSLFTextParagraph line(XSLFTextShape body, String text, int indent, boolean bullet) {
        XSLFTextParagraph paragraph = body.addNewTextParagraph();
        paragraph.setIndentLevel(Math.max(0, Math.min(indent, 4)));
        paragraph.setBullet(bullet);
        paragraph.addNewTextRun().setText(text);
        return paragraph;
    }

    private static void table(XSLFSlide slide, TableBlockOf table) {
        XSLFTable grid = slide.createTable();
        grid.setAnchor(new Rectangle(40, 300, 640, 200));
        row(grid.addRow(), table.header(), true);
        table.rows().forEach(cells -> row(grid.addRow(), cells, false));
    }

    private static void row(XSLFTableRow row, List<String> cells, boolean bold) {
        for (String cell : cells) {
            row.addCell().setText(cell).setBold(bold);
        }
    }
}
