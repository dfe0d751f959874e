package dev.hexaflow.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.app.config.ServiceSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** A real Hexaflow on a free loopback port over a data directory, with a small HTTP client for tests. */
public final class TestServer implements AutoCloseable {

    static final String ADMIN_TOKEN = "test-admin-token-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final Hexaflow hexaflow;

    private TestServer(Hexaflow hexaflow) {
        this.hexaflow = hexaflow;
    }

    public static TestServer start(Path dataDir) {
        return start(config(dataDir));
    }

    /** A new data directory starts from the build's database file, as every server's does (NewDatabaseFile). */
    public static TestServer start(Configuration config) {
        return new TestServer(Hexaflow.start(config));
    }

    /** Imports a DSL file from the test resources' apps folder; answers app_id, workflow_id and api_key. */
    public JsonNode importApp(String name) {
        try (java.io.InputStream in = TestServer.class.getResourceAsStream("/apps/" + name)) {
            HttpResponse<String> response = admin("POST", "/admin/apps", "application/yaml",
                    new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            if (response.statusCode() != 201) {
                throw new AssertionError("import failed: " + response.body());
            }
            return json(response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where the server answers: {@code http://127.0.0.1:<port>}. */
    public String baseUrl() {
        return hexaflow.baseUrl();
    }

    public ServiceApi api(String key) {
        return new ServiceApi(hexaflow.baseUrl(), key);
    }

    public static Configuration config(Path dataDir) {
        // A test that closes its server with runs still going waits a second for them, not a deploy's 30 s.
        return new Configuration("127.0.0.1", 0, dataDir, java.util.Optional.of(ADMIN_TOKEN))
                .withService(ServiceSettings.DEFAULTS.withShutdownGrace(java.time.Duration.ofSeconds(1)));
    }

    /**
     * A connection to a running server's own H2 database in {@code dataDir}, shared within this JVM: the URL must
     * name the file system the server opened it through, or H2 would take it for another database.
     */
    static java.sql.Connection database(Path dataDir) throws java.sql.SQLException {
        return java.sql.DriverManager.getConnection("jdbc:h2:retry:" + dataDir.toAbsolutePath().resolve("hexaflow"),
                "sa", "");
    }

    /** The campus key made by this start (a first start on its data dir). */
    String campusKey() {
        return hexaflow.report().newCampusKey().orElseThrow();
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    HttpResponse<byte[]> getBytes(String path) {
        return exchange(HttpRequest.newBuilder(uri(path)).GET(), HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<byte[]> getBytesAsAdmin(String path) {
        return exchange(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + ADMIN_TOKEN).GET(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    HttpResponse<String> send(String method, String path, String contentType, String body, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return send(request);
    }

    HttpResponse<String> admin(String method, String path, String contentType, String body) {
        return send(method, path, contentType, body, ADMIN_TOKEN);
    }

    String issueCampusKey() {
        return json(admin("POST", "/admin/campus/keys", null, null)).get("key").asText();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        return exchange(request, HttpResponse.BodyHandlers.ofString());
    }

    static <T> HttpResponse<T> exchange(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
        return ServiceApi.bounded(CLIENT, request.timeout(Duration.ofSeconds(30)).build(), body);
    }

    private URI uri(String path) {
        return URI.create(hexaflow.baseUrl() + path);
    }

    public static JsonNode json(HttpResponse<String> response) {
        return json(response.body());
    }

    public static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    /**
     * A page's token, asked for as the page asks: naming the web user it keeps ({@code user}), or none on a first
     * visit; answered with the user the token acts for.
     */
    PageToken pageToken(String siteCode, String user) {
        HttpResponse<String> answer = send("POST", "/apps/" + siteCode + "/token", "application/json",
                user == null ? "{}" : "{\"user\": \"" + user + "\"}", null);
        if (answer.statusCode() != 201) {
            throw new AssertionError("no token: " + answer.statusCode() + " " + answer.body());
        }
        JsonNode body = json(answer);
        return new PageToken(body.get("access_token").asText(), body.get("user").asText());
    }

    /** A page's token and the web user it acts for. */
    record PageToken(String token, String user) {
    }

    /** A client for a server that a test started itself. */
    record ClientOnly(String baseUrl) {
        HttpResponse<String> send(String method, String path, String token) {
            return exchange(HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .method(method, HttpRequest.BodyPublishers.noBody())
                    .header("Authorization", "Bearer " + token), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Override
    public void close() {
        hexaflow.close();
    }
}
