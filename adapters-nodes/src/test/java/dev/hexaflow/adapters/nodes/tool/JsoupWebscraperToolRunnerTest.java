package dev.hexaflow.adapters.nodes.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JsoupWebscraperToolRunnerTest {

    private static final ToolRef WEBSCRAPER = new ToolRef(ToolProviderType.BUILTIN, "webscraper", "webscraper");
    private static final String PAGE = """
            <html><head><title>Opening hours</title><meta name="author" content="Library staff">
            <style>p { color: red }</style><script>var x = 1;</script></head>
            <body><nav>Home | About</nav>
            <article><h1>Opening  hours</h1><p>Monday to Friday,
              9 to 5.</p><ul><li>Closed on holidays</li></ul></article>
            <footer>(c) 2024</footer></body></html>""";

    private final FakeHttpTarget target = new FakeHttpTarget();

    @AfterEach
    void close() {
        target.close();
    }

    private static JsoupWebscraperToolRunner scraper(String allow, long maxBytes) {
        return new JsoupWebscraperToolRunner(new OutboundExchange(() -> OutboundPolicy.of(allow, "")),
                Duration.ofSeconds(5), maxBytes);
    }

    private static String text(List<ToolMessage> messages) {
        return ((ToolMessage.Text) messages.get(0)).text();
    }

    @Test
    void aPageOnAnAllowedAddressAnswersItsReadableTextInDifysTemplate() {
        String url = target.serve("page.html", "text/html; charset=utf-8", PAGE.getBytes(StandardCharsets.UTF_8));

        String text = text(scraper("127.0.0.1", 1_000_000).run(WEBSCRAPER, Map.of("url", url), new StopSwitch()));

        assertThat(text).isEqualTo("\nTITLE: Opening hours\nAUTHORS: Library staff\nPUBLISH DATE: None\n"
                + "TOP_IMAGE_URL: \nTEXT:\n\nOpening hours\nMonday to Friday, 9 to 5.\nClosed on holidays\n");
        assertThat(target.seen().get(0).headers().get("user-agent")).isEqualTo(JsoupWebscraperToolRunner.USER_AGENT);
    }

    @Test
    void aPrivateAddressIsRefusedWithoutTheAllowSettingAndNothingIsSent() {
        String url = target.serve("page.html", "text/html", PAGE.getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> scraper("", 1_000_000).run(WEBSCRAPER, Map.of("url", url), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("HEXAFLOW_OUTBOUND_ALLOW");
        assertThat(target.seen()).isEmpty();
    }

    @Test
    void aRedirectToAPrivateAddressIsRefusedToo() {
        String inner = target.serve("page.html", "text/html", PAGE.getBytes(StandardCharsets.UTF_8));
        String redirect = target.url("/redirect/302?to=" + URLEncoder.encode(
                inner.replace("127.0.0.1", "169.254.169.254"), StandardCharsets.UTF_8));

        assertThatThrownBy(() -> scraper("127.0.0.1", 1_000_000).run(WEBSCRAPER, Map.of("url", redirect),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("169.254.169.254");
        assertThat(target.seen()).hasSize(1);
    }

    @Test
    void aPageLargerThanTheLimitFailsTheTool() {
        String url = target.serve("big.html", "text/html", ("<p>" + "x".repeat(5000) + "</p>")
                .getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> scraper("127.0.0.1", 4096).run(WEBSCRAPER, Map.of("url", url), new StopSwitch()))
                .isInstanceOf(ToolException.class).hasMessageContaining("larger than 4096 bytes");
    }

    @Test
    void aPageSlowerThanTheTimeLimitFailsTheTool() {
        JsoupWebscraperToolRunner impatient = new JsoupWebscraperToolRunner(
                new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")), Duration.ofMillis(300), 1000);

        assertThatThrownBy(() -> impatient.run(WEBSCRAPER, Map.of("url", target.url("/wait/3000")),
                new StopSwitch())).isInstanceOf(ToolException.class).hasMessageContaining("did not answer");
    }

    @Test
    void anErrorStatusOrAnotherContentTypeAnswersDifysText() {
        assertThat(text(scraper("127.0.0.1", 1000).run(WEBSCRAPER, Map.of("url", target.url("/status/404")),
                new StopSwitch()))).isEqualTo("URL returned status code 404.");
        assertThat(text(scraper("127.0.0.1", 1000).run(WEBSCRAPER, Map.of("url", target.url("/image")),
                new StopSwitch()))).isEqualTo("Unsupported content-type [image/png] of URL.");
        assertThat(text(scraper("127.0.0.1", 1000).run(WEBSCRAPER, Map.of("url", ""), new StopSwitch())))
                .isEqualTo("Please input url");
    }
}
