package dev.hexaflow.adapters.http.webapp;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The web page's files, read from the jar once: the workflow page, the chat page and the error page as templates,
 * the scripts and the style as they are. The page links each file with a digest of its content, so browsers may
 * keep them for good.
 */
final class WebAssets {

    /**
     * The page an app gets: a chat for a chatflow, chatbot or agent, a form and its result for a workflow, the
     * same form and its streamed answer for a text generator.
     */
    enum Page {
        WORKFLOW, CHAT, COMPLETION
    }

    /** A file served as it is. */
    record Asset(String contentType, byte[] bytes, String digest) {
    }

    private static final String SCRIPT = "text/javascript; charset=utf-8";
    private static final Map<String, String> FILES = Map.ofEntries(Map.entry("app.js", SCRIPT),
            Map.entry("chat.js", SCRIPT), Map.entry("form.js", SCRIPT), Map.entry("client.js", SCRIPT), Map.entry("markdown.js", SCRIPT),
            Map.entry("app.css", "text/css; charset=utf-8"), Map.entry("icon.svg", "image/svg+xml"),
            Map.entry("console.js", SCRIPT), Map.entry("console-runs.js", SCRIPT),
            Map.entry("console-timeline.js", SCRIPT), Map.entry("console-more.js", SCRIPT),
            Map.entry("console.css", "text/css; charset=utf-8"));

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z]+)}}");

    private final Map<String, Asset> files;
    private final String page;
    private final String chatPage;
    private final String notFound;
    private final String formPage;
    private final byte[] landing;
    private final byte[] console;

    private WebAssets(Map<String, Asset> files, String page, String chatPage, String notFound, String formPage,
            byte[] landing, byte[] console) {
        this.files = files;
        this.page = page;
        this.chatPage = chatPage;
        this.notFound = notFound;
        this.formPage = formPage;
        this.landing = landing;
        this.console = console;
    }

    static WebAssets load() {
        Map<String, Asset> files = new LinkedHashMap<>();
        FILES.forEach((name, type) -> {
            byte[] bytes = WebAppRoutes.resource(name);
            files.put(name, new Asset(type, bytes, digest(bytes)));
        });
        String page = links(text("page.html"), files);
        String chatPage = links(text("chat.html"), files);
        String notFound = links(text("not-found.html"), files);
        String formPage = links(text("form.html"), files);
        byte[] landing = links(text("landing.html"), files).getBytes(StandardCharsets.UTF_8);
        byte[] console = links(text("console.html"), files).getBytes(StandardCharsets.UTF_8);
        return new WebAssets(files, page, chatPage, notFound, formPage, landing, console);
    }

    Optional<Asset> find(String name) {
        return Optional.ofNullable(files.get(name));
    }

    /** The page of one app: its code for the script, its title and language for the first paint. */
    byte[] page(Page kind, String siteCode, String title, String language) {
        return fill(kind == Page.CHAT ? chatPage : page, Map.of("code", siteCode,
                "mode", kind == Page.COMPLETION ? "completion" : "workflow",
                "title", title == null ? "" : title,
                "lang", language == null || language.isBlank() ? "en" : language));
    }

    /** The page of a paused run's form: its token for the script, the node's title for the first paint. */
    byte[] formPage(String token, String title) {
        return fill(formPage, Map.of("token", token, "title", title == null ? "" : title));
    }

    /** The server's own page at {@code /}: the same for everyone, so it is made once. */
    byte[] landingPage() {
        return landing.clone();
    }

    /** The operator's console: one page for everyone, whose data comes from the admin API. */
    byte[] consolePage() {
        return console.clone();
    }

    byte[] notFoundPage(String message) {
        return fill(notFound, Map.of("message", message));
    }

    /** Each {@code {{name}}} replaced by its value, escaped, in one pass: a value is never read as a template. */
    private static byte[] fill(String template, Map<String, String> values) {
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder(template.length() + 256);
        while (matcher.find()) {
            String value = values.get(matcher.group(1));
            matcher.appendReplacement(out, Matcher.quoteReplacement(value == null ? matcher.group() : escape(value)));
        }
        matcher.appendTail(out);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String links(String template, Map<String, Asset> files) {
        String linked = template;
        for (Map.Entry<String, Asset> file : files.entrySet()) {
            linked = linked.replace("{{" + file.getKey() + "}}", "/web/" + file.getKey() + "?v="
                    + file.getValue().digest());
        }
        return linked;
    }

    private static String text(String name) {
        return new String(WebAppRoutes.resource(name), StandardCharsets.UTF_8);
    }

    private static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Text for HTML content and quoted attribute values. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
