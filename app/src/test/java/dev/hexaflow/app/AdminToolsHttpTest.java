package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tool registry over the admin API: servers and bindings kept, secrets never shown back, every refusal. */
class AdminToolsHttpTest {

    private static final String HTTP_SERVER = """
            {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer sk-live-123"}}""";
    private static final String STDIO_SERVER = """
            {"command": ["npx", "-y", "@acme/db-mcp"], "env": {"DB_PASSWORD": "hunter2"}}""";
    private static final String BINDING = """
            {"provider": "junjiem/db_query/db_query", "tool": "sql_execute", "mcp": {"server": "db", "tool": "query"}}""";

    /** An OpenAPI document given inline, as a JSON string. */
    private static final String INLINE_API = TestServer.json("\"openapi: 3.0.0\\nservers: [{url: 'https://api.example"
            + ".com'}]\\npaths:\\n  /forecast:\\n    get: {operationId: getForecast}\\n\"").toString();

    @TempDir
    Path dataDir;
    TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(dataDir);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private HttpResponse<String> put(String path, String body) {
        return server.admin("PUT", path, "application/json", body);
    }

    private static void assertRefused(HttpResponse<String> response, int status, String code, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo(code);
        assertThat(body.get("status").asInt()).isEqualTo(status);
        assertThat(body.get("message").asText()).contains(message);
    }

    @Test
    void serversAndBindingsAreListedWithTheNamesOfTheirSecretsButNeverTheValues() {
        assertThat(put("/admin/tools/servers/search", HTTP_SERVER).statusCode()).isEqualTo(201);
        assertThat(put("/admin/tools/servers/db", STDIO_SERVER).statusCode()).isEqualTo(201);
        assertThat(put("/admin/tools/bindings", BINDING).statusCode()).isEqualTo(201);

        HttpResponse<String> listed = server.admin("GET", "/admin/tools", null, null);

        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body()).doesNotContain("sk-live-123").doesNotContain("hunter2");
        JsonNode body = json(listed);
        assertThat(body.get("servers")).hasSize(2);
        JsonNode db = body.get("servers").get(0);
        assertThat(db.get("name").asText()).isEqualTo("db");
        assertThat(db.get("transport").asText()).isEqualTo("stdio");
        assertThat(db.get("command").toString()).isEqualTo("[\"npx\",\"-y\",\"@acme/db-mcp\"]");
        assertThat(db.get("env").toString()).isEqualTo("[\"DB_PASSWORD\"]");
        JsonNode search = body.get("servers").get(1);
        assertThat(search.get("transport").asText()).isEqualTo("streamable_http");
        assertThat(search.get("url").asText()).isEqualTo("https://mcp.example.com/mcp");
        assertThat(search.get("headers").toString()).isEqualTo("[\"Authorization\"]");
        assertThat(body.get("bindings").toString()).isEqualTo("[{\"provider\":\"junjiem/db_query/db_query\","
                + "\"tool\":\"sql_execute\",\"mcp\":{\"server\":\"db\",\"tool\":\"query\"}}]");
        assertThat(body.get("builtin").isArray()).isTrue();
    }

    @Test
    void theAnswerToARegistrationDoesNotEchoTheSecretsEither() {
        HttpResponse<String> registered = put("/admin/tools/servers/search", HTTP_SERVER);

        assertThat(registered.body()).doesNotContain("sk-live-123").contains("Authorization");
    }

    @Test
    void registeringAgainReplacesTheServerAndAnswers200() {
        put("/admin/tools/servers/search", HTTP_SERVER);

        HttpResponse<String> again = put("/admin/tools/servers/search", STDIO_SERVER);

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(server.admin("GET", "/admin/tools", null, null)).get("servers").get(0).get("transport")
                .asText()).isEqualTo("stdio");
    }

    @Test
    void theRegistryOutlivesARestart() {
        put("/admin/tools/servers/db", STDIO_SERVER);
        put("/admin/tools/bindings", BINDING);
        server.close();
        server = TestServer.start(dataDir);

        JsonNode body = json(server.admin("GET", "/admin/tools", null, null));

        assertThat(body.get("servers")).hasSize(1);
        assertThat(body.get("bindings")).hasSize(1);
    }

    @Test
    void aBadServerBodyIsRefusedNamingWhatIsWrong() {
        assertRefused(put("/admin/tools/servers/x", "not json"), 400, "invalid_param", "JSON object");
        assertRefused(put("/admin/tools/servers/x", "{}"), 400, "invalid_param", "either");
        assertRefused(put("/admin/tools/servers/x", "{\"url\": \"http://a/mcp\", \"command\": [\"a\"]}"), 400,
                "invalid_param", "either");
        assertRefused(put("/admin/tools/servers/x", "{\"url\": \"ftp://a/mcp\"}"), 400, "invalid_param", "url");
        assertRefused(put("/admin/tools/servers/x", "{\"command\": []}"), 400, "invalid_param", "command");
        assertRefused(put("/admin/tools/servers/x", "{\"command\": [\"a\"], \"env\": {\"K\": 1}}"), 400,
                "invalid_param", "K");
        assertRefused(put("/admin/tools/servers/x", "{\"url\": \"http://a/mcp\", \"headers\": {\"K\": \"a\\nb\"}}"),
                400, "invalid_param", "one line");
        assertRefused(put("/admin/tools/servers/x", "{\"url\": \"http://a/mcp\", \"extra\": 1}"), 400,
                "invalid_param", "extra");
        assertRefused(put("/admin/tools/servers/bad%20name", STDIO_SERVER), 400, "invalid_param", "name");
        assertThat(json(server.admin("GET", "/admin/tools", null, null)).get("servers")).isEmpty();
    }

    @Test
    void aBindingToAServerNotRegisteredIsRefused() {
        assertRefused(put("/admin/tools/bindings", BINDING), 400, "invalid_param",
                "No MCP server named 'db' is registered");
    }

    @Test
    void aBindingNeedsExactlyOneTargetAndAProvider() {
        assertRefused(put("/admin/tools/bindings", "{\"provider\": \"a\", \"tool\": \"b\"}"), 400, "invalid_param",
                "one of \"mcp\"");
        assertRefused(put("/admin/tools/bindings", "{\"provider\": \"a\", \"tool\": \"b\", \"app\": \"x\", "
                + "\"mcp\": {\"server\": \"s\", \"tool\": \"t\"}}"), 400, "invalid_param", "one of \"mcp\"");
        assertRefused(put("/admin/tools/bindings", "{\"tool\": \"b\", \"mcp\": {\"server\": \"s\", \"tool\": \"t\"}}"),
                400, "invalid_param", "provider");
        assertRefused(put("/admin/tools/bindings", "{\"provider\": \"a\", \"tool\": \"b\", \"openapi\": {}}"), 400,
                "invalid_param", "document");
    }

    @Test
    void aBindingToAnAppThatDoesNotExistIsRefused() {
        assertRefused(put("/admin/tools/bindings", "{\"provider\": \"a\", \"tool\": \"b\", \"app\": \"ghost\"}"),
                400, "invalid_param", "No app with id 'ghost' exists on this server");
        assertThat(json(server.admin("GET", "/admin/tools", null, null)).get("bindings")).isEmpty();
    }

    @Test
    void aBindingToAnOpenApiOperationIsRefusedWhenTheDocumentDoesNotParseOrLacksTheOperation() {
        assertRefused(put("/admin/tools/bindings", "{\"provider\": \"a\", \"tool\": \"b\", \"openapi\": "
                + "{\"document\": \"{not: [json\", \"operation\": \"x\"}}"), 400, "invalid_param", "does not parse");
        assertRefused(put("/admin/tools/bindings", "{\"provider\": \"a\", \"tool\": \"b\", \"openapi\": "
                + "{\"document\": " + INLINE_API + ", \"operation\": \"nope\"}}"), 400, "invalid_param",
                "no operation with operationId 'nope'; its operations are: getForecast");
    }

    @Test
    void aBindingToAnInlineOpenApiDocumentIsKeptAndListed() {
        HttpResponse<String> bound = put("/admin/tools/bindings", "{\"provider\": \"weather\", \"tool\": "
                + "\"forecast\", \"openapi\": {\"document\": " + INLINE_API + ", \"operation\": \"getForecast\"}}");

        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
        JsonNode listed = json(server.admin("GET", "/admin/tools", null, null)).get("bindings").get(0);
        assertThat(listed.get("openapi").get("operation").asText()).isEqualTo("getForecast");
        assertThat(listed.get("openapi").get("document").asText()).contains("api.example.com");
        assertThat(listed.has("mcp")).isFalse();
    }

    @Test
    void anApiToolsKeyIsKeptButNeitherTheAnswerNorTheListingShowsIt() {
        HttpResponse<String> bound = put("/admin/tools/bindings", "{\"provider\": \"weather\", \"tool\": "
                + "\"forecast\", \"openapi\": {\"document\": " + INLINE_API + ", \"operation\": \"getForecast\", "
                + "\"auth\": {\"type\": \"api_key_header\", \"header\": \"X-Api-Key\", \"prefix\": \"bearer\", "
                + "\"value\": \"sk-weather-987\"}}}");
        HttpResponse<String> listing = server.admin("GET", "/admin/tools", null, null);

        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(201);
        assertThat(bound.body()).doesNotContain("sk-weather-987");
        assertThat(listing.body()).doesNotContain("sk-weather-987");
        JsonNode auth = json(listing).get("bindings").get(0).get("openapi").get("auth");
        assertThat(auth.toString()).isEqualTo("{\"type\":\"api_key_header\",\"header\":\"X-Api-Key\","
                + "\"prefix\":\"bearer\",\"value_set\":true}");
    }

    @Test
    void anApiToolsCredentialOfAnUnknownTypeOrWithoutAKeyIsRefused() {
        String binding = "{\"provider\": \"weather\", \"tool\": \"forecast\", \"openapi\": {\"document\": "
                + INLINE_API + ", \"operation\": \"getForecast\", \"auth\": %s}}";

        assertRefused(put("/admin/tools/bindings", binding.formatted("{\"type\": \"oauth\", \"value\": \"x\"}")),
                400, "invalid_param", "auth type must be none, api_key_header or api_key_query");
        assertRefused(put("/admin/tools/bindings", binding.formatted("{\"type\": \"api_key_query\"}")), 400,
                "invalid_param", "value must be the key");
        assertRefused(put("/admin/tools/bindings", binding.formatted("{\"type\": \"api_key_header\", "
                + "\"prefix\": \"token\", \"value\": \"x\"}")), 400, "invalid_param", "prefix must be bearer, "
                + "basic or custom");
        assertThat(json(server.admin("GET", "/admin/tools", null, null)).get("bindings")).isEmpty();
    }

    @Test
    void aServerWithBindingsCannotBeRemovedUntilTheyAreUnbound() {
        put("/admin/tools/servers/db", STDIO_SERVER);
        put("/admin/tools/bindings", BINDING);

        assertRefused(server.admin("DELETE", "/admin/tools/servers/db", null, null), 409, "in_use",
                "junjiem/db_query/db_query/sql_execute");

        HttpResponse<String> unbound = server.admin("DELETE",
                "/admin/tools/bindings?provider=junjiem/db_query/db_query&tool=sql_execute", null, null);
        assertThat(unbound.statusCode()).isEqualTo(200);
        assertThat(server.admin("DELETE", "/admin/tools/servers/db", null, null).statusCode()).isEqualTo(200);
        assertThat(json(server.admin("GET", "/admin/tools", null, null)).get("servers")).isEmpty();
    }

    @Test
    void aPluginProviderOfDifysOwnIsTheSameToolAsItsShortName() {
        put("/admin/tools/servers/db", STDIO_SERVER);
        put("/admin/tools/bindings", """
                {"provider": "langgenius/time/time", "tool": "current_time", "mcp": {"server": "db", "tool": "now"}}""");

        HttpResponse<String> unbound = server.admin("DELETE", "/admin/tools/bindings", "application/json",
                "{\"provider\": \"time\", \"tool\": \"current_time\"}");

        assertThat(unbound.statusCode()).isEqualTo(200);
    }

    @Test
    void removingWhatIsNotThereIsNotFound() {
        assertRefused(server.admin("DELETE", "/admin/tools/servers/ghost", null, null), 404, "not_found", "ghost");
        assertRefused(server.admin("DELETE", "/admin/tools/bindings?provider=a&tool=b", null, null), 404,
                "not_found", "a/b");
        assertRefused(server.admin("DELETE", "/admin/tools/bindings", null, null), 400, "invalid_param",
                "Name the tool");
    }

    @Test
    void everyToolRouteWantsTheAdminToken() {
        for (String[] route : new String[][] {{"GET", "/admin/tools"}, {"PUT", "/admin/tools/servers/x"},
                {"DELETE", "/admin/tools/servers/x"}, {"PUT", "/admin/tools/bindings"},
                {"DELETE", "/admin/tools/bindings"}}) {
            HttpResponse<String> response = server.send(route[0], route[1], "application/json", STDIO_SERVER,
                    "wrong-token-0123456789");
            assertThat(response.statusCode()).as(route[0] + " " + route[1]).isEqualTo(401);
            assertThat(json(response).get("code").asText()).isNotBlank();
        }
        assertThat(json(server.admin("GET", "/admin/tools", null, null)).get("servers")).isEmpty();
    }
}
