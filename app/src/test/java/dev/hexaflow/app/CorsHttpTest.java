package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.app.cli.UsageException;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.ServiceSettings;
import dev.hexaflow.engine.Dsl;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** CORS on the Service API as Dify sets it; none on the admin API. */
class CorsHttpTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String ORIGIN = "http://front.example:3000";

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @ValueSource(strings = {"/v1/workflows/run", "/v1/workflows/abc/run", "/v1/workflows/tasks/t/stop",
            "/v1/workflows/run/r", "/v1/workflows/logs", "/v1/files/upload", "/v1/info", "/v1/parameters",
            "/v1/site"})
    void aPreflightOnEveryServiceApiRouteIsAllowedWithDifysMethodsHeadersAndAMaxAge(String path) throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            HttpResponse<String> preflight = send(server, "OPTIONS", path, ORIGIN, Map.of(
                    "Access-Control-Request-Method", "POST",
                    "Access-Control-Request-Headers", "authorization,content-type"), null);
            assertThat(preflight.statusCode()).isBetween(200, 299);
            assertThat(header(preflight, "Access-Control-Allow-Origin")).isEqualTo("*");
            assertThat(header(preflight, "Access-Control-Allow-Methods"))
                    .isEqualTo("GET, PUT, POST, DELETE, OPTIONS, PATCH");
            assertThat(header(preflight, "Access-Control-Allow-Headers"))
                    .isEqualTo("Content-Type, Authorization, X-App-Code");
            assertThat(header(preflight, "Access-Control-Max-Age")).isEqualTo("7200");
        }
    }

    @Test
    void answersErrorsAndStreamsNameTheOriginTheyMayBeReadFrom() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            String key = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml", echo()))
                    .get("api_key").asText();
            HttpResponse<String> blocking = send(server, "POST", "/v1/workflows/run", ORIGIN,
                    Map.of("Authorization", "Bearer " + key, "Content-Type", "application/json"),
                    "{\"inputs\":{\"name\":\"a\"},\"response_mode\":\"blocking\",\"user\":\"u\"}");
            assertThat(blocking.statusCode()).isEqualTo(200);
            assertThat(header(blocking, "Access-Control-Allow-Origin")).isEqualTo("*");

            HttpResponse<String> stream = send(server, "POST", "/v1/workflows/run", ORIGIN,
                    Map.of("Authorization", "Bearer " + key, "Content-Type", "application/json"),
                    "{\"inputs\":{\"name\":\"a\"},\"response_mode\":\"streaming\",\"user\":\"u\"}");
            assertThat(stream.body()).contains("workflow_finished");
            assertThat(header(stream, "Access-Control-Allow-Origin")).isEqualTo("*");

            HttpResponse<String> unauthorized = send(server, "GET", "/v1/info", ORIGIN,
                    Map.of("Authorization", "Bearer app-wrong"), null);
            assertThat(unauthorized.statusCode()).isEqualTo(401);
            assertThat(header(unauthorized, "Access-Control-Allow-Origin")).isEqualTo("*");

            HttpResponse<String> missing = send(server, "GET", "/v1/no-such-thing", ORIGIN, Map.of(), null);
            assertThat(missing.statusCode()).isEqualTo(404);
            assertThat(header(missing, "Access-Control-Allow-Origin")).isEqualTo("*");
        }
    }

    @Test
    void theAdminApiSendsNoCorsHeaderAtAll() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            HttpResponse<String> preflight = send(server, "OPTIONS", "/admin/apps", ORIGIN,
                    Map.of("Access-Control-Request-Method", "GET"), null);
            assertThat(preflight.headers().map().keySet()).noneMatch(name -> name.toLowerCase().startsWith(
                    "access-control-"));
            HttpResponse<String> list = send(server, "GET", "/admin/apps", ORIGIN,
                    Map.of("Authorization", "Bearer " + TestServer.ADMIN_TOKEN), null);
            assertThat(list.statusCode()).isEqualTo(200);
            assertThat(list.headers().map().keySet()).noneMatch(name -> name.toLowerCase().startsWith(
                    "access-control-"));
        }
    }

    @Test
    void namedOriginsAreEchoedAndOthersGetNoHeader() throws Exception {
        Configuration config = TestServer.config(dataDir).withService(ServiceSettings.DEFAULTS
                .withCorsOrigins(List.of(ORIGIN, "https://other.example")));
        try (TestServer server = TestServer.start(config)) {
            HttpResponse<String> allowed = send(server, "OPTIONS", "/v1/info", ORIGIN,
                    Map.of("Access-Control-Request-Method", "GET"), null);
            assertThat(header(allowed, "Access-Control-Allow-Origin")).isEqualTo(ORIGIN);
            assertThat(header(allowed, "Vary")).contains("Origin");
            HttpResponse<String> refused = send(server, "OPTIONS", "/v1/info", "http://evil.example",
                    Map.of("Access-Control-Request-Method", "GET"), null);
            assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
            assertThat(refused.headers().firstValue("Access-Control-Allow-Methods")).isEmpty();
            HttpResponse<String> actual = send(server, "GET", "/v1/info", "http://evil.example",
                    Map.of("Authorization", "Bearer app-wrong"), null);
            assertThat(actual.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        }
    }

    @Test
    void aMalformedOriginSettingIsOneClearLine() {
        assertThatThrownBy(() -> ServiceSettings.fromEnvironment(Map.of("HEXAFLOW_CORS_ORIGINS",
                "https://ok.example, not an origin")))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("HEXAFLOW_CORS_ORIGINS")
                .hasMessageContaining("'not an origin'");
        assertThat(ServiceSettings.fromEnvironment(Map.of()).corsOrigins()).containsExactly("*");
    }

    static String echo() {
        return Dsl.text("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: name, label: name, type: text-input, required: true}]}}
                - {id: t, data: {type: template-transform, title: T, template: 'Hello {{ name }}!', variables: [{variable: name, value_selector: [start, name]}]}}
                - {id: end, data: {type: end, title: End, outputs: [{variable: greeting, value_selector: [t, output]}]}}
                """, """
                - {source: start, target: t}
                - {source: t, target: end}
                """);
    }

    private static HttpResponse<String> send(TestServer server, String method, String path, String origin,
            Map<String, String> headers, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.hexaflow.baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Origin", origin);
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String header(HttpResponse<?> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }
}
