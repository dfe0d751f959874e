package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.ServiceSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example requests of docs/campus-feed.md, sent as written, in order, to a real server on a first start, each
 * answer compared with the one the page shows: where the page writes {@code …} anything may stand, and what differs
 * from start to start (a timestamp, a key, a calendar's stamp) is read as its kind. A key shortened in a request
 * ({@code 77tj…}) is the campus key the start printed, or the key an earlier answer gave that starts the same.
 */
class ExampleRequestsTest {

    private static final Path PAGE = Path.of(System.getProperty("hexaflow.root", "..")).resolve("docs/campus-feed.md");
    private static final String ADMIN_TOKEN = "my-admin-token-0123456789";
    private static final Pattern COMMAND = Pattern.compile("^(?:printf \"([^\"]*)\" \\| )?curl (.*)$");
    private static final Pattern KEY = Pattern.compile("[a-z0-9]{32}");

    @TempDir
    Path dataDir;

    @Test
    void everyExampleRequestAnswersAsThePageShows() throws IOException {
        Configuration config = new Configuration("127.0.0.1", 0, dataDir, Optional.of(ADMIN_TOKEN))
                .withService(ServiceSettings.DEFAULTS.withShutdownGrace(java.time.Duration.ofSeconds(1)));
        try (TestServer server = TestServer.start(config)) {
            Map<String, String> keys = new HashMap<>();
            String campusKey = server.campusKey();
            List<Example> examples = examples(Files.readString(PAGE));
            assertThat(examples).as("example requests on the page").hasSizeGreaterThanOrEqualTo(9);
            for (Example example : examples) {
                Sent sent = send(server.hexaflow.baseUrl(), example, keys, campusKey);
                check(example, sent, keys);
            }
        }
    }

    /** One {@code $ curl} line of the page (its continuation lines joined) and the answer shown under it. */
    private record Example(String command, String shown) {
    }

    private record Sent(int status, Map<String, List<String>> headers, String body) {
    }

    private static List<Example> examples(String page) {
        List<Example> examples = new ArrayList<>();
        Matcher block = Pattern.compile("(?ms)^```sh\\n(.*?)^```").matcher(page);
        while (block.find()) {
            String[] lines = block.group(1).replace("\\\n", " ").split("\n");
            String command = null;
            StringBuilder shown = new StringBuilder();
            for (String line : lines) {
                if (line.startsWith("$ ")) {
                    if (command != null) {
                        examples.add(new Example(command, shown.toString()));
                    }
                    command = line.substring(2).replaceAll("\\s+", " ");
                    shown.setLength(0);
                } else if (command != null) {
                    shown.append(line).append('\n');
                }
            }
            if (command != null) {
                examples.add(new Example(command, shown.toString()));
            }
        }
        return examples;
    }

    private static Sent send(String baseUrl, Example example, Map<String, String> keys, String campusKey) {
        Matcher command = COMMAND.matcher(example.command());
        assertThat(command.matches()).as("a command this test can send: %s", example.command()).isTrue();
        String body = command.group(1) == null ? null : command.group(1).replace("\\n", "\n");
        List<String> words = words(command.group(2));
        String method = "GET";
        String url = null;
        HttpRequest.Builder request = HttpRequest.newBuilder();
        for (int i = 0; i < words.size(); i++) {
            switch (words.get(i)) {
                case "-i" -> { }
                case "-X" -> method = words.get(++i);
                case "-H" -> {
                    String[] header = words.get(++i).split(": ", 2);
                    request.header(header[0], header[1]);
                }
                case "--data-binary" -> assertThat(words.get(++i)).as("the body is the piped printf").isEqualTo("@-");
                default -> url = words.get(i);
            }
        }
        assertThat(url).as(example.command()).startsWith("http://127.0.0.1:8080/");
        String path = url.substring("http://127.0.0.1:8080".length());
        Matcher shortened = Pattern.compile("([a-z0-9]{4})…").matcher(path);
        while (shortened.find()) {
            keys.putIfAbsent(shortened.group(1), campusKey); // a key no earlier answer gave: the printed one
        }
        for (Map.Entry<String, String> key : keys.entrySet()) {
            path = path.replace(key.getKey() + "…", key.getValue());
        }
        request.uri(URI.create(baseUrl + path)).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = TestServer.exchange(request, HttpResponse.BodyHandlers.ofString());
        return new Sent(response.statusCode(), response.headers().map(), response.body().replace("\r\n", "\n"));
    }

    private static void check(Example example, Sent sent, Map<String, String> keys) {
        String shown = example.shown();
        String expectedBody = shown;
        if (example.command().contains(" -i ")) {
            String[] lines = shown.split("\n");
            assertThat(sent.status()).as(example.command()).isEqualTo(Integer.parseInt(lines[0].split(" ")[1]));
            int line = 1;
            for (; line < lines.length && lines[line].matches("^[A-Za-z-]+: .*"); line++) {
                String[] header = lines[line].split(": ", 2);
                assertThat(sent.headers().entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase(header[0]))
                        .flatMap(h -> h.getValue().stream()).toList())
                        .as("%s: header %s", example.command(), header[0]).contains(header[1]);
            }
            expectedBody = String.join("\n", List.of(lines).subList(line, lines.length));
        }
        Matcher matched = pattern(expectedBody.strip()).matcher(sent.body().strip());
        assertThat(matched.matches()).as("%s answered%n%s%nwhere the page shows%n%s", example.command(),
                sent.body(), expectedBody).isTrue();
        Matcher key = KEY.matcher(sent.body());
        if (sent.body().startsWith("{\"key\":") && key.find()) {
            keys.put(KEY.matcher(expectedBody).results().findFirst().orElseThrow().group().substring(0, 4),
                    key.group());
        }
    }

    /** The shown answer as a pattern: {@code …} for anything, and what changes between starts as its kind. */
    private static Pattern pattern(String shown) {
        StringBuilder regex = new StringBuilder();
        Matcher varying = Pattern.compile("…|\"timestamp\":\\d+|<timestamp>\\d+</timestamp>|DTSTAMP:\\d{8}T\\d{6}Z"
                + "|\"key\":\"[a-z0-9]{32}\"").matcher(shown);
        int from = 0;
        while (varying.find()) {
            regex.append(Pattern.quote(shown.substring(from, varying.start())));
            String what = varying.group();
            regex.append(what.equals("…") ? "(?s:.*?)"
                    : what.startsWith("\"timestamp\"") ? "\"timestamp\":\\d+"
                    : what.startsWith("<timestamp>") ? "<timestamp>\\d+</timestamp>"
                    : what.startsWith("DTSTAMP") ? "DTSTAMP:\\d{8}T\\d{6}Z"
                    : "\"key\":\"[a-z0-9]{32}\"");
            from = varying.end();
        }
        regex.append(Pattern.quote(shown.substring(from)));
        return Pattern.compile(regex.toString());
    }

    /** The words of a command line as a POSIX shell splits them, with single and double quotes. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == ' ') {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
