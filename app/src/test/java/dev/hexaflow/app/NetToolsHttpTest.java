package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dalle, SQL and jina reader built-ins through a Dify app's tool nodes on the real server: the image endpoint
 * and the page are real HTTP on loopback, the database a real H2 file the operator binds.
 */
class NetToolsHttpTest {

    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 7, 7, 7};

    @TempDir
    Path dataDir;

    @TempDir
    Path shop;

    private String database() throws Exception {
        String url = "jdbc:h2:file:" + shop.resolve("shop").toAbsolutePath();
        try (Connection connection = DriverManager.getConnection(url, "clerk", "s3cret");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE orders (id INT, item VARCHAR(20))");
            statement.execute("INSERT INTO orders VALUES (1, 'tea'), (2, 'cake')");
        }
        return url;
    }

    private static JsonNode ran(TestServer server, String sql, String page) {
        JsonNode imported = server.importApp("net-tools.yml");
        assertThat(imported.get("warnings")).as("dalle3, sql_execute and jina_reader are built in").isEmpty();
        return json(server.api(imported.get("api_key").asText()).postJson("/v1/workflows/run", run(Map.of(
                "prompt", "a tea shop", "sql", sql, "url", page), "blocking", "ada"))).get("data");
    }

    @Test
    void anAppDrawsQueriesAndReadsWithTheBuiltInTools() throws Exception {
        try (FakeHttpTarget target = new FakeHttpTarget()) {
            target.serve("v1/images/generations", "application/json", ("{\"data\": [{\"b64_json\": \""
                    + Base64.getEncoder().encodeToString(PNG) + "\"}]}").getBytes(StandardCharsets.UTF_8));
            String page = target.serve("menu.html", "text/html", ("<html><head><title>Menu</title></head><body>"
                    + "<h2>Teas</h2><p>Green and <i>black</i>.</p></body></html>").getBytes(StandardCharsets.UTF_8));
            EngineConfiguration engine = EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_OUTBOUND_ALLOW",
                    "127.0.0.1", "HEXAFLOW_SQL_URL", database(), "HEXAFLOW_SQL_USER", "clerk",
                    "HEXAFLOW_SQL_PASSWORD", "s3cret")).withLlm(URI.create(target.url("/files/v1")), "sk-1");
            try (TestServer server = TestServer.start(TestServer.config(dataDir).withEngine(engine))) {
                JsonNode ran = ran(server, "SELECT id, item FROM orders ORDER BY id", page);

                assertThat(ran.get("status").asText()).as(ran.toString()).isEqualTo("succeeded");
                JsonNode image = ran.get("outputs").get("images").get(0);
                assertThat(image.get("type").asText()).isEqualTo("image");
                assertThat(image.get("mime_type").asText()).isEqualTo("image/png");
                HttpResponse<byte[]> served = server.getBytes(image.get("url").asText());
                assertThat(served.body()).isEqualTo(PNG);
                JsonNode asked = new ObjectMapper().readTree(target.seen().get(0).body());
                assertThat(asked.get("size").asText()).isEqualTo("1024x1792");
                assertThat(asked.get("model").asText()).isEqualTo("dall-e-3");
                assertThat(ran.get("outputs").get("table").asText()).isEqualTo("""
                        | ID | ITEM |
                        |----|------|
                        | 1  | tea  |
                        | 2  | cake |""");
                JsonNode read = new ObjectMapper().readTree(ran.get("outputs").get("page").asText());
                assertThat(read.at("/data/title").asText()).isEqualTo("Menu");
                assertThat(read.at("/data/content").asText()).isEqualTo("## Teas\n\nGreen and _black_.");
            }
        }
    }

    @Test
    void anUpdateOnTheReadOnlyDatabaseFailsTheRunAndChangesNothing() throws Exception {
        try (FakeHttpTarget target = new FakeHttpTarget()) {
            target.serve("v1/images/generations", "application/json", ("{\"data\": [{\"b64_json\": \""
                    + Base64.getEncoder().encodeToString(PNG) + "\"}]}").getBytes(StandardCharsets.UTF_8));
            String url = database();
            EngineConfiguration engine = EngineConfiguration.fromEnvironment(Map.of("HEXAFLOW_SQL_URL", url,
                    "HEXAFLOW_SQL_USER", "clerk", "HEXAFLOW_SQL_PASSWORD", "s3cret"))
                    .withLlm(URI.create(target.url("/files/v1")), null);
            try (TestServer server = TestServer.start(TestServer.config(dataDir).withEngine(engine))) {
                JsonNode ran = ran(server, "DELETE FROM orders", target.url("/files/none.html"));

                assertThat(ran.get("status").asText()).isEqualTo("failed");
                assertThat(ran.get("error").asText()).startsWith("Failed to invoke tool hjlarry/database/database")
                        .contains("read-only").contains("DELETE");
            }
            try (Connection connection = DriverManager.getConnection(url, "clerk", "s3cret");
                    Statement statement = connection.createStatement();
                    java.sql.ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM orders")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(2);
            }
        }
    }
}
