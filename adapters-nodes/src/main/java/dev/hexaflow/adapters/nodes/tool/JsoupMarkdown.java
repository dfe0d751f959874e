package dev.hexaflow.adapters.nodes.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * HTML as Markdown, the way a reader service (Jina's {@code r.jina.ai}) gives a page to a model: headings,
 * paragraphs, lists, links, images, emphasis, code, quotes and tables; scripts, styles and forms left out.
 * Links and images are made absolute against the page's address.
 */
final class JsoupMarkdown {

    private static final Set<String> SKIPPED = Set.of("script", "style", "noscript", "template", "head", "svg",
            "iframe", "form", "button", "select", "textarea", "input");

    private final StringBuilder out = new StringBuilder();
    private final boolean images;

    private JsoupMarkdown(boolean images) {
        this.images = images;
    }

    /** The elements' Markdown, blank lines between blocks and none at either end. */
    static String of(List<Element> roots, boolean images) {
        JsoupMarkdown markdown = new JsoupMarkdown(images);
        for (Element root : roots) {
            markdown.children(root);
            markdown.block();
        }
        return markdown.out.toString().replaceAll("[ \\t]+\\n", "\n").replaceAll("\\n{3,}", "\n\n").strip();
    }

    private void children(Element element) {
        for (Node child : element.childNodes()) {
            node(child);
        }
    }

    private void node(Node node) {
        if (node instanceof TextNode text) {
            String words = text.getWholeText().replaceAll("\\s+", " ");
            out.append(out.isEmpty() || out.charAt(out.length() - 1) == '\n' ? words.stripLeading() : words);
        } else if (node instanceof Element element && !SKIPPED.contains(element.normalName())) {
            element(element);
        }
    }

    private void element(Element element) {
        String name = element.normalName();
        switch (name) {
            case "h1", "h2", "h3", "h4", "h5", "h6" -> {
                block();
                out.append("#".repeat(name.charAt(1) - '0')).append(' ').append(inline(element));
                block();
            }
            case "br" -> out.append('\n');
            case "hr" -> {
                block();
                out.append("---");
                block();
            }
            case "a" -> link(element);
            case "img" -> image(element);
            case "strong", "b" -> wrap(element, "**");
            case "em", "i" -> wrap(element, "_");
            case "code" -> out.append('`').append(element.text()).append('`');
            case "pre" -> {
                block();
                out.append("```\n").append(element.wholeText().strip()).append("\n```");
                block();
            }
            case "ul", "ol" -> list(element, name.equals("ol"));
            case "blockquote" -> {
                block();
                out.append("> ").append(inline(element).replace("\n", "\n> "));
                block();
            }
            case "table" -> table(element);
            default -> {
                boolean isBlock = element.isBlock();
                if (isBlock) {
                    block();
                }
                children(element);
                if (isBlock) {
                    block();
                }
            }
        }
    }

    private void link(Element element) {
        String text = inline(element);
        String href = element.absUrl("href");
        if (href.isEmpty() || text.isEmpty()) {
            out.append(text);
        } else {
            out.append('[').append(text).append("](").append(href).append(')');
        }
    }

    private void image(Element element) {
        String src = element.absUrl("src");
        if (images && !src.isEmpty()) {
            out.append("![").append(element.attr("alt").strip()).append("](").append(src).append(')');
        }
    }

    private void wrap(Element element, String mark) {
        String text = inline(element);
        if (!text.isEmpty()) {
            out.append(mark).append(text).append(mark);
        }
    }

    private void list(Element element, boolean numbered) {
        block();
        int number = 1;
        for (Element item : element.children()) {
            if (item.normalName().equals("li")) {
                out.append(numbered ? number++ + ". " : "- ").append(inline(item).replace("\n", "\n  ")).append('\n');
            }
        }
        block();
    }

    private void table(Element element) {
        block();
        boolean first = true;
        for (Element row : element.select("tr")) {
            List<String> cells = new ArrayList<>();
            for (Element cell : row.select("> th, > td")) {
                cells.add(inline(cell).replace("\n", " ").replace("|", "\\|"));
            }
            out.append("| ").append(String.join(" | ", cells)).append(" |\n");
            if (first) {
                out.append("|").append(" --- |".repeat(cells.size())).append('\n');
                first = false;
            }
        }
        block();
    }

    /** An element's content on its own, trimmed. */
    private String inline(Element element) {
        JsoupMarkdown inner = new JsoupMarkdown(images);
        inner.children(element);
        return inner.out.toString().replaceAll("\\n{3,}", "\n\n").strip();
    }

    /** Ends the current block with a blank line. */
    private void block() {
        if (out.isEmpty()) {
            return;
        }
        while (out.length() > 0 && out.charAt(out.length() - 1) == ' ') {
            out.setLength(out.length() - 1);
        }
        int length = out.length();
        if (length > 0 && !(length >= 2 && out.charAt(length - 1) == '\n' && out.charAt(length - 2) == '\n')) {
            out.append(out.charAt(length - 1) == '\n' ? "\n" : "\n\n");
        }
    }
}
