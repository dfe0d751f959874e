package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's own page at {@code /}, over real HTTP: HTML under the app pages' headers, the basics a screen reader
 * needs, the links it promises, no script of its own, and nothing about the apps a visitor was not given.
 */
class LandingPageHttpTest {

    @TempDir
    static Path dataDir;
    static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(dataDir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theRootAnswersAnHtmlPageUnderThePagesHeaders() {
        HttpResponse<String> page = server.get("/");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("text/html").containsIgnoringCase("charset=utf-8"));
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp -> assertThat(csp)
                .contains("default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'self'"));
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .isEqualTo(server.get("/web/app.css").headers().firstValue("Content-Security-Policy"));
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
    }

    @Test
    void thePageHasALanguageATitleLandmarksAndNoScript() {
        String html = server.get("/").body();

        assertThat(html).contains("<html lang=\"en\">", "<title>Hexaflow</title>", "<header", "<main",
                "<h1>Hexaflow</h1>", "name=\"viewport\"");
        assertThat(html).doesNotContain("<script", " style=", "onclick");
    }

    @Test
    void thePageLinksTheApiDocumentTheConsoleHealthAndExplainsAppPages() {
        String html = server.get("/").body();

        assertThat(html).contains("href=\"/openapi.json\"", "href=\"/console\"", "href=\"/health\"",
                "/apps/&lt;site code&gt;", "docs/service-api.md");
        assertThat(server.get("/openapi.json").statusCode()).isEqualTo(200);
        assertThat(server.get("/health").statusCode()).isEqualTo(200);
    }

    @Test
    void itsStyleSheetAndIconAreServed() {
        Matcher linked = Pattern.compile("href=\"(/web/[^\"]+)\"").matcher(server.get("/").body());
        int files = 0;
        while (linked.find()) {
            files++;
            assertThat(server.get(linked.group(1)).statusCode()).as(linked.group(1)).isEqualTo(200);
        }
        assertThat(files).isEqualTo(2);
    }

    @Test
    void thePageNamesNoAppEvenWhenAppsHaveTheirPagesOn() {
        String siteCode = server.importApp("echo.yml").get("site_code").asText();

        assertThat(server.get("/").body()).doesNotContain(siteCode, "Echo");
    }
}
