package dev.hexaflow.adapters.nodes.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * through the outbound policy (as the webscraper fetches it, same limits) and answered as the text Dify's tool
 * answers, Jina's JSON ({@code {"code":200,"status":20000,"data":{"title","description","url","content"}}}) with the
 * page as Markdown in {@code content}. {@code target_selector} keeps the parts it selects, {@code remove_selector}
 * drops those it selects, {@code retain_images} off leaves images out, and the gather options add {@code links} and
 * {@code images}. What needs a browser or a model is not done ({@code wait_for_selector}, {@code with_shadow_dom},
 * {@code image_caption} are ignored); {@code summary}, which would change the answer, is refused.
 */
public final class JsoupJinaReaderToolRunner implements ToolRunner {

    static final String PROVIDER = "jina";
    private static final ToolDescription READER = new ToolDescription(new ToolRef(ToolProviderType.BUILTIN,
            PROVIDER, "jina_reader"), "A tool for scraping webpages. Input should be a URL.",
            BuiltinArguments.schema(List.of("url", "request_params", "target_selector", "remove_selector",
                    "wait_for_selector", "retain_images", "image_caption", "gather_all_links_at_the_end",
                    "gather_all_images_at_the_end", "no_cache", "with_iframe", "with_shadow_dom", "summary"),
                    Map.of("retain_images", "boolean", "image_caption", "boolean", "gather_all_links_at_the_end", "boolean",
                            "gather_all_images_at_the_end", "boolean", "no_cache", "boolean",
                            "with_iframe", "boolean", "with_shadow_dom", "boolean", "summary", "boolean"),
                    List.of("url")));
    private static final ObjectMapper JSON = new ObjectMapper();
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
        requestParams(args.text("request_params", ""));
        if (args.bool("summary", false)) {
            throw new ToolException("summary needs a model to summarise with, which this tool does not have here;"
                    + " leave it off for the page's text");
        }
        PageFetch.Page page = pages.get(url, JsoupWebscraperToolRunner.USER_AGENT, stop);
        if (page.status() != 200) {
            throw new ToolException("The page at " + url + " answered status " + page.status());
        }
        String text = new String(page.bytes(), page.charset());
        Map<String, Object> data = new LinkedHashMap<>();
        if (TEXT.contains(page.mainType())) {
            data.put("title", "");
            data.put("description", "");
            data.put("url", url);
            data.put("content", text.strip());
        } else if (HTML.contains(page.mainType())) {
            read(Jsoup.parse(text, page.uri().toString()), url, args, data);
        } else {
            throw new ToolException("The page at " + url + " is " + page.mainType() + ", not a web page");
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("code", 200);
        answer.put("status", 20000);
        answer.put("data", data);
        try {
            return List.of(new ToolMessage.Text(JSON.writeValueAsString(answer)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Dify's check of {@code request_params}, which went to Jina's URL as query parameters and mean nothing here. */
    private static void requestParams(String text) {
        if (text.isBlank()) {
            return;
        }
        try {
            if (!JSON.readTree(text).isObject()) {
                throw new ToolException("Invalid request_params: request_params must be a JSON object");
            }
        } catch (JsonProcessingException e) {
            throw new ToolException("Invalid request_params: " + e.getOriginalMessage());
        }
    }

    private static void read(Document document, String url, BuiltinArguments args, Map<String, Object> data) {
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
        Element description = document.selectFirst("meta[name=description]");
        data.put("title", document.title().strip());
        data.put("description", description == null ? "" : description.attr("content").strip());
        data.put("url", url);
        data.put("content", JsoupMarkdown.of(roots, args.bool("retain_images", true)));
        if (args.bool("gather_all_links_at_the_end", false)) {
            data.put("links", gathered(roots, "a[href]", "href", false));
        }
        if (args.bool("gather_all_images_at_the_end", false)) {
            data.put("images", gathered(roots, "img[src]", "src", true));
        }
    }

    /** Jina's summaries: each link's text (an image's alt) to its absolute address, first one kept. */
    private static Map<String, String> gathered(List<Element> roots, String selector, String attribute,
            boolean image) {
        Map<String, String> found = new LinkedHashMap<>();
        for (Element root : roots) {
            for (Element element : root.select(selector)) {
                String label = image ? element.attr("alt").strip() : element.text().strip();
                found.putIfAbsent(label.isEmpty() ? element.absUrl(attribute) : label, element.absUrl(attribute));
            }
        }
        return found;
    }
}
