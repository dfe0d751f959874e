package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.text.Normalizer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeVisitor;

/**
 * Dify's built-in {@code webscraper} tool: fetches a page through the outbound policy (every redirect checked)
 * and answers its readable text in Dify's template (title, authors, text). jsoup parses the page; the readable
 * text is the page's article (or main part, or body) without scripts, styles, navigation, headers, footers and
 * forms, one line per block, as Readability's text reads. A page larger than the limit, or slower than the
 * time limit, fails the tool rather than fill the run's memory or hold it.
 */
public final class JsoupWebscraperToolRunner implements ToolRunner {

    static final String PROVIDER = "webscraper";
    /** Dify's get_url header when the node gives no user agent. */
    static final String USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like"
            + " Gecko) Chrome/91.0.4472.124 Safari/537.36";
    private static final String TEMPLATE = "\nTITLE: %s\nAUTHORS: %s\nPUBLISH DATE: %s\nTOP_IMAGE_URL: %s\nTEXT:\n\n%s\n";
    private static final Set<String> NOT_TEXT = Set.of("script", "style", "noscript", "template", "nav", "header",
            "footer", "aside", "form", "iframe", "svg", "button", "select", "textarea", "head");
    private static final Set<String> TEXT_TYPES = Set.of("text/html", "application/xhtml+xml", "text/plain",
            "text/markdown");
    private static final ToolDescription WEBSCRAPER = new ToolDescription(new ToolRef(ToolProviderType.BUILTIN,
            PROVIDER, "webscraper"), "A tool for scraping webpages. Input should be a URL.",
            BuiltinArguments.schema(List.of("url", "user_agent", "generate_summary"),
                    Map.of("generate_summary", "boolean"), List.of("url")));

    private final PageFetch pages;

    /**
     * @param timeout  for the whole fetch, each redirect included
     * @param maxBytes the largest page read; a larger one fails the tool
     */
    public JsoupWebscraperToolRunner(OutboundExchange outbound, Duration timeout, long maxBytes) {
        this.pages = new PageFetch(outbound, timeout, maxBytes);
    }

    /** The tools it runs, as {@code provider/tool}. */
    public static List<String> labels() {
        return List.of(PROVIDER + "/webscraper");
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        boolean ours = (tool.type() == ToolProviderType.BUILTIN || tool.type() == ToolProviderType.PLUGIN)
                && tool.provider().equals(PROVIDER) && tool.tool().equals("webscraper");
        return ours ? Optional.of(new ToolDescription(tool, WEBSCRAPER.description(), WEBSCRAPER.inputSchema()))
                : Optional.empty();
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        BuiltinArguments args = new BuiltinArguments(arguments);
        String url = args.text("url", "");
        if (url.isEmpty()) {
            return List.of(new ToolMessage.Text("Please input url"));
        }
        if (args.bool("generate_summary", false)) {
            throw new ToolException("generate_summary needs a model to summarise with, which this tool does not"
                    + " have here; leave it off for the page's text");
        }
        String agent = args.text("user_agent", "");
        return List.of(new ToolMessage.Text(fetch(url, agent.isEmpty() ? USER_AGENT : agent, stop)));
    }

    private String fetch(String url, String agent, StopSignal stop) {
        PageFetch.Page page = pages.get(url, agent, stop);
        if (page.status() != 200) {
            return "URL returned status code " + page.status() + ".";
        }
        if (!TEXT_TYPES.contains(page.mainType())) {
            return "Unsupported content-type [" + page.mainType() + "] of URL.";
        }
        String text = new String(page.bytes(), page.charset());
        if (!page.mainType().equals("text/html") && !page.mainType().equals("application/xhtml+xml")) {
            return text.isBlank() ? "" : page(null, null, collapse(text));
        }
        return readable(Jsoup.parse(text, page.uri().toString()));
    }

    /** Dify's template around the readable text; no text, no template (Dify answers an empty text then). */
    static String readable(Document document) {
        String title = document.title().isBlank() ? null : document.title().strip();
        Element author = document.selectFirst("meta[name=author]");
        String authors = author == null || author.attr("content").isBlank() ? null : author.attr("content");
        Element root = Optional.ofNullable(document.selectFirst("article"))
                .or(() -> Optional.ofNullable(document.selectFirst("main")))
                .orElseGet(document::body);
        if (root == null) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        root.traverse(new NodeVisitor() {
            private int skipping;

            @Override
            public void head(Node node, int depth) {
                if (node instanceof Element element && (NOT_TEXT.contains(element.normalName()) || skipping > 0)) {
                    skipping++;
                } else if (node instanceof TextNode textNode && skipping == 0) {
                    // HTML shows a run of whitespace as one space; only blocks and <br> break lines.
                    text.append(textNode.getWholeText().replaceAll("\\s+", " "));
                } else if (node instanceof Element element && element.isBlock()) {
                    text.append('\n');
                } else if (node instanceof Element element && element.normalName().equals("br")) {
                    text.append('\n');
                }
            }

            @Override
            public void tail(Node node, int depth) {
                if (node instanceof Element element && skipping > 0) {
                    skipping--;
                } else if (node instanceof Element element && element.isBlock()) {
                    text.append('\n');
                }
            }
        });
        String plain = collapse(text.toString());
        return plain.isBlank() ? "" : page(title, authors, plain);
    }

    private static String page(String title, String authors, String text) {
        return String.format(TEMPLATE, python(title), python(authors), "None", "", text);
    }

    /** Each line's spaces run together, and blank lines dropped, as Dify's {@code \n\s*\n} to {@code \n} does. */
    private static String collapse(String text) {
        String normal = Normalizer.normalize(text, Normalizer.Form.NFKC);
        StringBuilder out = new StringBuilder();
        for (String line : normal.split("\n")) {
            String squeezed = line.replaceAll("[\\s\\u00a0]+", " ").strip();
            if (!squeezed.isEmpty()) {
                if (out.length() > 0) {
                    out.append('\n');
                }
                out.append(squeezed);
            }
        }
        return out.toString();
    }

    private static String python(String text) {
        return text == null ? "None" : text;
    }
}
