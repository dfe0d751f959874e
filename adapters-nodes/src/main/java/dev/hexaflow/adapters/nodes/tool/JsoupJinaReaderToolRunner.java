package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Selector;

/**
 * Dify's {@code jina} tool {@code jina_reader}, read here rather than at {@code r.jina.ai}: the page is fetched
 * through the outbound policy (as the webscraper fetches it, same limits) and answered as Jina's reader answers
 * its text form: {@code Title:}, {@code URL Source:} and {@code Markdown Content:}. {@code target_selector} keeps
 * the parts it selects, {@code remove_selector} drops those it selects, {@code image_caption} keeps images as
 * Markdown images, and the gather options list links and images at the end. What needs a browser or a model
 * ({@code wait_for_selector}, {@code with_shadow_dom}, {@code summary}) is ignored, but a summary, which would change
 * the answer, is refused.
 */
public final class JsoupJinaReaderToolRunner implements ToolRunner {

    static final String PROVIDER = "jina";
    private static final ToolDescription READER = new ToolDescription(new ToolRef(ToolProviderType.BUILTIN,
            PROVIDER, "jina_reader"), "A tool for scraping webpages. Input should be a URL.",
            BuiltinArguments.schema(List.of("url", "request_params", "target_selector", "remove_selector",
                    "wait_for_selector", "image_caption", "gather_all_links_at_the_end",
                    "gather_all_images_at_the_end", "no_cache", "with_iframe", "with_shadow_dom", "summary"),
                    Map.of("image_caption", "boolean", "gather_all_links_at_the_end", "boolean",
                            "gather_all_images_at_the_end", "boolean", "no_cache", "boolean",
                            "with_iframe", "boolean", "with_shadow_dom", "boolean", "summary", "boolean"),
                    List.of("url")));
    private static final Set<String> HTML = Set.of("text/html", "application/xhtml+xml");
    private static final Set<String> TEXT = Set.of("text/plain", "text/markdown");

    private final PageFetch pages;

    /** Limits as the webscraper's: the whole fetch within {@code timeout}, at most {@code maxBytes}. */
    public JsoupJinaReaderToolRunner(OutboundExchange outbound, Duration timeout, long maxBytes) {
        this.pages = new PageFetch(outbound, timeout, maxBytes);
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return List.of(PROVIDER + "/jina_reader");
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && tool.provider().equals(PROVIDER) && tool.tool().equals("jina_reader");
        return ours ? Optional.of(new ToolDescription(tool, READER.description(), READER.inputSchema()))
                : Optional.empty();
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        BuiltinArguments args = new BuiltinArguments(arguments);
        String url = args.text("url", "").strip();
        if (url.isEmpty()) {
            throw new ToolException("url is required");
        }
        if (args.bool("summary", false)) {
            throw new ToolException("summary needs a model to summarise with, which this tool does not have here;"
                    + " leave it off for the page's text");
        }
        PageFetch.Page page = pages.get(url, JsoupWebscraperToolRunner.USER_AGENT, stop);
        if (page.status() != 200) {
            throw new ToolException("The page at " + url + " answered status " + page.status());
        }
        String text = new String(page.bytes(), page.charset());
        if (TEXT.contains(page.mainType())) {
            return List.of(new ToolMessage.Text(answer("", url, text.strip())));
        }
        if (!HTML.contains(page.mainType())) {
            throw new ToolException("The page at " + url + " is " + page.mainType() + ", not a web page");
        }
        return List.of(new ToolMessage.Text(read(Jsoup.parse(text, page.uri().toString()), url, args)));
    }

    private static String read(Document document, String url, BuiltinArguments args) {
        String remove = args.text("remove_selector", "").strip();
        String target = args.text("target_selector", "").strip();
        List<Element> roots;
        try {
            if (!remove.isEmpty()) {
                document.select(remove).remove();
            }
            roots = target.isEmpty() ? List.of(document.body()) : new ArrayList<>(document.select(target));
        } catch (Selector.SelectorParseException e) {
            throw new ToolException("The selector is not a CSS selector: " + e.getMessage());
        }
        StringBuilder content = new StringBuilder(JsoupMarkdown.of(roots, args.bool("image_caption", false)));
        if (args.bool("gather_all_links_at_the_end", false)) {
            gathered(content, "Links/Buttons:", roots, "a[href]", "href", false);
        }
        if (args.bool("gather_all_images_at_the_end", false)) {
            gathered(content, "Images:", roots, "img[src]", "src", true);
        }
        return answer(document.title().strip(), url, content.toString());
    }

    private static void gathered(StringBuilder content, String heading, List<Element> roots, String selector,
            String attribute, boolean image) {
        Set<String> lines = new LinkedHashSet<>();
        for (Element root : roots) {
            for (Element element : root.select(selector)) {
                String label = image ? element.attr("alt").strip() : element.text().strip();
                lines.add("- " + (image ? "!" : "") + "[" + label + "](" + element.absUrl(attribute) + ")");
            }
        }
        if (!lines.isEmpty()) {
            content.append("\n\n").append(heading).append('\n').append(String.join("\n", lines));
        }
    }

    private static String answer(String title, String url, String markdown) {
        return "Title: " + title + "\n\nURL Source: " + url + "\n\nMarkdown Content:\n" + markdown;
    }
}
