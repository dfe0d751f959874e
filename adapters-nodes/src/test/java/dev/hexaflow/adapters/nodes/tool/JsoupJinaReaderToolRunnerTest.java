package dev.hexaflow.adapters.nodes.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JsoupJinaReaderToolRunnerTest {

    private static final ToolRef READER = new ToolRef(ToolProviderType.PLUGIN, "langgenius/jina/jina", "jina_reader");
    private static final String PAGE = """
            <html><head><title>Opening hours</title><meta name="description" content="When we are open">
            <script>var x = 1;</script></head>
            <body><nav id="menu"><a href="/">Home</a></nav>
            <main><h1>Opening  hours</h1><p>Monday to <b>Friday</b>, 9 to 5. See <a href="/holidays">holidays</a>.</p>
            <ul><li>Closed on Sundays</li><li>Late on Thursdays</li></ul>
            <img src="/door.png" alt="The door">
            <table><tr><th>Day</th><th>Hours</th></tr><tr><td>Mon</td><td>9-5</td></tr></table>
            <pre>code  kept</pre></main></body></html>""";

    private final FakeHttpTarget target = new FakeHttpTarget();

    @AfterEach
    void close() {
        target.close();
    }

    private static JsoupJinaReaderToolRunner reader(String allow, long maxBytes) {
        return new JsoupJinaReaderToolRunner(new OutboundExchange(() -> OutboundPolicy.of(allow, "")),
                Duration.ofSeconds(5), maxBytes);
    }

    private static JsonNode answer(List<ToolMessage> messages) throws Exception {
        assertThat(messages).hasSize(1);
        return new ObjectMapper().readTree(((ToolMessage.Text) messages.get(0)).text());
    }

    @Test
    void aPageIsAnsweredAsJinasJsonWithItsMarkdown() throws Exception {
        String url = target.serve("page.html", "text/html; charset=utf-8", PAGE.getBytes(StandardCharsets.UTF_8));
        String base = url.substring(0, url.indexOf("/files/"));

        JsonNode answer = answer(reader("127.0.0.1", 1_000_000).run(READER, Map.of("url", url), new StopSwitch()));

        assertThat(answer.get("code").asInt()).isEqualTo(200);
        assertThat(answer.get("status").asInt()).isEqualTo(20000);
        assertThat(answer.at("/data/title").asText()).isEqualTo("Opening hours");
        assertThat(answer.at("/data/description").asText()).isEqualTo("When we are open");
        assertThat(answer.at("/data/url").asText()).isEqualTo(url);
        assertThat(answer.at("/data/content").asText()).isEqualTo("[Home](" + base + "/)\n\n"
                + "# Opening hours\n\n"
                + "Monday to **Friday**, 9 to 5. See [holidays](" + base + "/holidays).\n\n"
                + "- Closed on Sundays\n- Late on Thursdays\n\n"
                + "![The door](" + base + "/door.png)\n\n"
                + "| Day | Hours |\n| --- | --- |\n| Mon | 9-5 |\n\n"
                + "```\ncode  kept\n```");
    }

    @Test
    void selectorsImagesAndGatheredLinksChangeTheAnswerAsJinasHeadersDo() throws Exception {
        String url = target.serve("page.html", "text/html", PAGE.getBytes(StandardCharsets.UTF_8));
        String base = url.substring(0, url.indexOf("/files/"));

        JsonNode answer = answer(reader("127.0.0.1", 1_000_000).run(READER, Map.of("url", url, "target_selector",
                "main", "remove_selector", "table, pre, ul", "retain_images", false, "gather_all_links_at_the_end",
                "true", "gather_all_images_at_the_end", true, "request_params", "{\"a\": 1}"), new StopSwitch()));

        assertThat(answer.at("/data/content").asText()).isEqualTo("# Opening hours\n\n"
                + "Monday to **Friday**, 9 to 5. See [holidays](" + base + "/holidays).");
        assertThat(answer.at("/data/links").toString()).isEqualTo("{\"holidays\":\"" + base + "/holidays\"}");
        assertThat(answer.at("/data/images").toString()).isEqualTo("{\"The door\":\"" + base + "/door.png\"}");
    }

    @Test
    void refusalsAndLimitsFailTheTool() {
        String url = target.serve("page.html", "text/html", PAGE.getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> reader("", 1_000_000).run(READER, Map.of("url", url), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("HEXAFLOW_OUTBOUND_ALLOW");
        assertThatThrownBy(() -> reader("127.0.0.1", 100).run(READER, Map.of("url", url), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("larger than 100 bytes");
        assertThatThrownBy(() -> reader("127.0.0.1", 1_000_000).run(READER, Map.of("url", url, "summary", true),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("summary needs a model");
        assertThatThrownBy(() -> reader("127.0.0.1", 1_000_000).run(READER, Map.of("url", url, "request_params",
                "[1]"), new StopSwitch())).isInstanceOf(ToolException.class)
                .hasMessage("Invalid request_params: request_params must be a JSON object");
        assertThatThrownBy(() -> reader("127.0.0.1", 1_000_000).run(READER, Map.of("url", target.url("/status/404")),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("status 404");
        assertThatThrownBy(() -> reader("127.0.0.1", 1_000_000).run(READER, Map.of("url", url, "target_selector",
                "main[["), new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("CSS selector");
    }
}
