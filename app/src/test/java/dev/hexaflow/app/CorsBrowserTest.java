package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.ServiceSettings;
import dev.hexaflow.app.web.HeadlessChromium;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A page served from another origin on loopback calls the Service API with an app key through the browser's own
 * fetch, in headless Chromium: the browser makes the preflight and enforces the answer's CORS headers. Blocking
 * and streaming runs work from an allowed origin; from an origin the operator did not allow, the browser refuses
 * the call before it is sent.
 */
class CorsBrowserTest {

    /** Runs a workflow through fetch and hands back the answer's text, or what the browser refused. */
    private static final String RUN = """
            const [base, key, mode, done] = arguments;
            fetch(base + '/v1/workflows/run', {method: 'POST', headers: {'Authorization': 'Bearer ' + key,
                'Content-Type': 'application/json'},
                body: JSON.stringify({inputs: {name: 'browser'}, response_mode: mode, user: 'cors'})})
              .then(async response => {
                const reader = response.body.getReader();
                const decoder = new TextDecoder();
                let text = '';
                for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
                  text += decoder.decode(chunk.value, {stream: true});
                }
                done(response.status + ' ' + text);
              })
              .catch(error => done('refused: ' + error));
            """;

    @TempDir
    Path dataDir;
    @TempDir
    Path profile;

    private Path[] chromium;
    private HttpServer page;
    private ChromeDriver browser;

    @BeforeEach
    void start() throws Exception {
        chromium = HeadlessChromium.installed().orElse(null);
        Assumptions.assumeTrue(chromium != null, "Chromium and chromedriver are not installed "
                + "(apt-get install chromium chromium-driver)");
        page = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        page.createContext("/", exchange -> {
            byte[] html = "<!doctype html><title>front end</title><p>another origin".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, html.length);
            exchange.getResponseBody().write(html);
            exchange.close();
        });
        page.start();
        browser = HeadlessChromium.start(chromium, profile, 800, 600);
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (page != null) {
            page.stop(0);
        }
    }

    @Test
    void aPageOfAnotherOriginRunsAWorkflowBlockingAndStreaming() {
        try (TestServer server = TestServer.start(dataDir)) {
            String key = importEcho(server);
            browser.get(pageOrigin() + "/");

            String blocking = run(server, key, "blocking");
            assertThat(blocking).startsWith("200 ").contains("\"greeting\":\"Hello browser!\"");
            String streaming = run(server, key, "streaming");
            assertThat(streaming).startsWith("200 ").contains("data: {\"event\":\"workflow_started\"")
                    .contains("\"event\":\"workflow_finished\"").contains("Hello browser!");
        }
    }

    @Test
    void aPageOfAnOriginNotAllowedIsRefusedByTheBrowserAndNothingRuns() {
        Configuration config = TestServer.config(dataDir).withService(ServiceSettings.DEFAULTS
                .withCorsOrigins(List.of("http://allowed.example")));
        try (TestServer server = TestServer.start(config)) {
            String key = importEcho(server);
            browser.get(pageOrigin() + "/");

            assertThat(run(server, key, "blocking")).startsWith("refused: TypeError");
            assertThat(TestServer.json(server.api(key).get("/v1/workflows/logs")).get("total").asInt())
                    .as("the browser sent no run").isZero();
        }
    }

    private String run(TestServer server, String key, String mode) {
        return (String) browser.executeAsyncScript(RUN, server.hexaflow.baseUrl(), key, mode);
    }

    private String pageOrigin() {
        return "http://127.0.0.1:" + page.getAddress().getPort();
    }

    private static String importEcho(TestServer server) {
        return TestServer.json(server.admin("POST", "/admin/apps", "application/yaml", CorsHttpTest.echo()))
                .get("api_key").asText();
    }
}
