package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
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

    private final OutboundExchange outbound;
    private final HttpClient client;
    private final Duration timeout;
    private final long maxBytes;

    /**
     * @param timeout  for the whole fetch, each redirect included
     * @param maxBytes the largest page read; a larger one fails the tool
     */
    public JsoupWebscraperToolRunner(OutboundExchange outbound, Duration timeout, long maxBytes) {
        this.outbound = outbound;
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout).build();
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
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw new ToolException("Invalid URL '" + url + "'");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ToolException("Invalid URL '" + url + "': only http and https are fetched");
        }
        OutboundExchange.Outgoing request = new OutboundExchange.Outgoing(uri, "GET",
                List.of(Map.entry("User-Agent", agent)), null);
        HttpResponse<InputStream> response;
        try {
            response = outbound.send(client, request, timeout, stop);
        } catch (OutboundExchange.RefusedException e) {
            throw new ToolException(e.getMessage());
        } catch (UnknownHostException e) {
            throw new ToolException("The host of " + url + " is not known");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ToolException(cause instanceof java.net.http.HttpTimeoutException
                    ? "The page at " + url + " did not answer within " + timeout.toSeconds() + " s"
                    : "The page at " + url + " could not be fetched: " + cause.getMessage());
        } catch (CancellationException e) {
            throw new ToolException("The run stopped while the page was fetched");
        } catch (IOException e) {
            throw new ToolException("The page at " + url + " could not be fetched: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("The run stopped while the page was fetched");
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                return "URL returned status code " + response.statusCode() + ".";
            }
            String contentType = response.headers().firstValue("content-type").orElse("text/html");
            String mainType = contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
            if (!TEXT_TYPES.contains(mainType)) {
                return "Unsupported content-type [" + mainType + "] of URL.";
            }
            byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new ToolException("The page at " + url + " is larger than " + maxBytes + " bytes");
            }
            Charset charset = charset(contentType);
            if (!mainType.equals("text/html") && !mainType.equals("application/xhtml+xml")) {
                String text = new String(bytes, charset);
                return text.isBlank() ? "" : page(null, null, collapse(text));
            }
            Document document = Jsoup.parse(new String(bytes, charset), uri.toString());
            return readable(document);
        } catch (IOException e) {
            throw new ToolException("The page at " + url + " could not be read: " + e.getMessage());
        }
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

    private static Charset charset(String contentType) {
        for (String part : contentType.split(";")) {
            String[] pair = part.strip().split("=", 2);
            if (pair.length == 2 && pair[0].strip().equalsIgnoreCase("charset")) {
                try {
                    return Charset.forName(pair[1].strip().replace("\"", ""));
                } catch (IllegalArgumentException e) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }

    private static String python(String text) {
        return text == null ? "None" : text;
    }
}
