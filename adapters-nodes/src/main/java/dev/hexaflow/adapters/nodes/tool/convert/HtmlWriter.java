package dev.hexaflow.adapters.nodes.tool.convert;

import java.util.List;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Markdown as an HTML fragment, as the plugin's Pandoc writes it (no page around it). An end user's text is data:
 * raw HTML in it is escaped and {@code javascript:} links are dropped, although tool files are served sandboxed.
 */
final class HtmlWriter {

    private static final HtmlRenderer RENDERER = HtmlRenderer.builder()
            .extensions(List.of(TablesExtension.create())).escapeHtml(true).sanitizeUrls(true).build();

    private HtmlWriter() {
    }

    static String write(String markdown) {
        return RENDERER.render(MarkdownBlocks.parse(markdown));
    }
}
