package dev.hexaflow.adapters.nodes.tool.convert;

import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Code;
import org.commonmark.node.Emphasis;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;

/**
 * Markdown read by CommonMark (with GitHub's tables) into the few kinds of block the document writers draw:
 * headings, paragraphs, list items, code, tables and rules. Inline marks are kept as bold, italic or code spans;
 * links keep their text, images their alternative text.
 */
final class MarkdownBlocks {

    private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();
    private static final Pattern THINK = Pattern.compile("<think>.*?</think>", Pattern.DOTALL);

    /** A piece of text with its marks. */
    record Span(String text, boolean bold, boolean italic, boolean code) {
    }

    sealed interface Block {
    }

    record HeadingBlock(int level, List<Span> spans) implements Block {
        String text() {
            return plain(spans);
        }
    }

    record ParagraphBlock(List<Span> spans) implements Block {
    }

    /** @param number the item's number in an ordered list, 0 in a bullet list */
    record ItemBlock(int depth, int number, List<Span> spans) implements Block {
    }

    record CodeBlock(String text) implements Block {
    }

    record TableBlockOf(List<String> header, List<List<String>> rows) implements Block {
    }

    record RuleBlock() implements Block {
    }

    private MarkdownBlocks() {
    }

    /**
     * The md_exporter plugin's reading of {@code md_text}: stripped, its {@code <think>} sections removed, a
     * {@code ```markdown} fence around the whole taken off, and a literal {@code \n} made a line break.
     */
    static String prepared(String mdText) {
        String text = mdText == null ? "" : mdText.strip();
        if (text.isEmpty()) {
            throw new ToolException("Empty input md_text");
        }
        text = THINK.matcher(text).replaceAll("").strip();
        if (text.endsWith("```")) {
            if (text.startsWith("```markdown")) {
                text = text.substring("```markdown".length(), text.length() - 3);
            } else if (text.startsWith("```")) {
                text = text.substring(3, text.length() - 3);
            }
        }
        return text.contains("\\n") ? text.replace("\\n", "\n") : text;
    }

    static Node parse(String markdown) {
        return PARSER.parse(markdown);
    }

    static List<Block> blocks(String markdown) {
        List<Block> blocks = new ArrayList<>();
        collect(parse(markdown), 0, blocks);
        return blocks;
    }

    private static void collect(Node parent, int depth, List<Block> blocks) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNext()) {
            collectOne(node, depth, blocks);
        }
    }

    private static void collectOne(Node node, int depth, List<Block> blocks) {
        if (node instanceof Heading heading) {
            blocks.add(new HeadingBlock(heading.getLevel(), spans(heading)));
        } else if (node instanceof Paragraph) {
            blocks.add(new ParagraphBlock(spans(node)));
        } else if (node instanceof BulletList || node instanceof OrderedList) {
            int number = node instanceof OrderedList ordered ? ordered.getStartNumber() : 0;
            for (Node item = node.getFirstChild(); item != null; item = item.getNext()) {
                item(item, depth + 1, number, blocks);
                number = number == 0 ? 0 : number + 1;
            }
        } else if (node instanceof FencedCodeBlock code) {
            blocks.add(new CodeBlock(code.getLiteral().stripTrailing()));
        } else if (node instanceof IndentedCodeBlock code) {
            blocks.add(new CodeBlock(code.getLiteral().stripTrailing()));
        } else if (node instanceof HtmlBlock html) {
            blocks.add(new ParagraphBlock(List.of(new Span(html.getLiteral().strip(), false, false, false))));
        } else if (node instanceof TableBlock table) {
            blocks.add(table(table));
        } else if (node instanceof ThematicBreak) {
            blocks.add(new RuleBlock());
        } else if (node instanceof BlockQuote) {
            collect(node, depth, blocks);
        }
    }

    /** A list item's first paragraph is the item; what follows it in the item (a nested list) comes after. */
    private static void item(Node item, int depth, int number, List<Block> blocks) {
        if (!(item instanceof ListItem)) {
            return;
        }
        Node first = item.getFirstChild();
        boolean text = first instanceof Paragraph;
        blocks.add(new ItemBlock(depth, number, text ? spans(first) : List.of()));
        for (Node next = text ? first.getNext() : first; next != null; next = next.getNext()) {
            collectOne(next, depth, blocks);
        }
    }

    private static TableBlockOf table(TableBlock table) {
        List<String> header = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (Node section = table.getFirstChild(); section != null; section = section.getNext()) {
            for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
                if (!(row instanceof TableRow)) {
                    continue;
                }
                List<String> cells = new ArrayList<>();
                for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
                    if (cell instanceof TableCell) {
                        cells.add(plain(spans(cell)));
                    }
                }
                if (section instanceof TableHead) {
                    header = cells;
                } else {
                    rows.add(cells);
                }
            }
        }
        return new TableBlockOf(header, rows);
    }

    static List<Span> spans(Node parent) {
        List<Span> spans = new ArrayList<>();
        inline(parent, false, false, spans);
        return spans;
    }

    private static void inline(Node parent, boolean bold, boolean italic, List<Span> spans) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNext()) {
            if (node instanceof Text text) {
                spans.add(new Span(text.getLiteral(), bold, italic, false));
            } else if (node instanceof Code code) {
                spans.add(new Span(code.getLiteral(), bold, italic, true));
            } else if (node instanceof SoftLineBreak) {
                spans.add(new Span(" ", bold, italic, false));
            } else if (node instanceof HardLineBreak) {
                spans.add(new Span("\n", bold, italic, false));
            } else if (node instanceof HtmlInline html) {
                spans.add(new Span(html.getLiteral(), bold, italic, false));
            } else {
                inline(node, bold || node instanceof StrongEmphasis, italic || node instanceof Emphasis, spans);
            }
        }
    }

    static String plain(List<Span> spans) {
        StringBuilder text = new StringBuilder();
        spans.forEach(span -> text.append(span.text()));
        return text.toString();
    }

    static List<TableBlockOf> tables(List<Block> blocks) {
        return blocks.stream().filter(TableBlockOf.class::isInstance).map(TableBlockOf.class::cast).toList();
    }
}
