package dev.hexaflow.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.Main;
import dev.hexaflow.testing.SharedFolder;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hexaflow tools ...} on a data dir, and the bindings file of {@code hexaflow run --tools}. */
class ToolsCommandsTest {

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {
    }

    private Outcome tools(String... args) {
        List<String> all = new ArrayList<>(List.of("tools"));
        all.addAll(Arrays.asList(args));
        all.addAll(List.of("--data-dir", dir.resolve("data").toString()));
        return main(all.toArray(String[]::new));
    }

    private static Outcome main(String... args) {
        return main(Map.of(), args);
    }

    private static Outcome main(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void serversAndBindingsAreKeptAndListedWithoutTheirSecrets() {
        assertThat(tools("server", "search", "https://mcp.example.com/mcp", "--header", "Authorization=Bearer sk-9")
                .exit()).isZero();
        assertThat(tools("server", "db", "--command", "npx -y @acme/db-mcp", "--env", "DB_PASSWORD=hunter2")
                .exit()).isZero();
        Outcome bound = tools("bind", "junjiem/db_query/db_query", "sql_execute", "--mcp", "db", "query");

        Outcome listed = tools("list");

        assertThat(bound.out()).contains("junjiem/db_query/db_query/sql_execute runs as the tool query of the MCP "
                + "server db");
        assertThat(listed.exit()).isZero();
        assertThat(listed.out()).contains("search", "https://mcp.example.com/mcp", "headers: Authorization")
                .contains("npx -y @acme/db-mcp", "env: DB_PASSWORD")
                .contains("junjiem/db_query/db_query/sql_execute", "mcp db query")
                .doesNotContain("sk-9").doesNotContain("hunter2");
    }

    @Test
    void aServerInUseIsKeptUntilItsToolsAreUnbound() {
        tools("server", "db", "--command", "mcp-db");
        tools("bind", "langgenius/time/time", "current_time", "--mcp", "db", "now");

        Outcome refused = tools("remove-server", "db");
        Outcome unbound = tools("unbind", "time", "current_time");
        Outcome removed = tools("remove-server", "db");

        assertThat(refused.exit()).isEqualTo(Main.FAILED);
        assertThat(refused.err()).contains("time/current_time").contains("unbind them first");
        assertThat(unbound.exit()).isZero();
        assertThat(removed.exit()).isZero();
        assertThat(tools("list").out()).doesNotContain("mcp-db");
    }

    @Test
    void bindingToAnUnknownServerOrUnbindingAnUnboundToolFails() {
        Outcome bind = tools("bind", "jina", "reader", "--mcp", "ghost", "read");
        Outcome unbind = tools("unbind", "jina", "reader");

        assertThat(bind.exit()).isEqualTo(Main.FAILED);
        assertThat(bind.err()).contains("No MCP server named 'ghost'");
        assertThat(unbind.exit()).isEqualTo(Main.FAILED);
        assertThat(unbind.err()).contains("jina/reader is not bound");
    }

    @Test
    void wrongUsageIsRefusedWithExit2AndNothingKept() {
        assertThat(tools("server", "x", "ftp://a/mcp").err()).contains("url");
        assertThat(tools("server", "x", "http://a/mcp", "--header", "novalue").exit()).isEqualTo(Main.USAGE);
        assertThat(tools("server", "bad name", "http://a/mcp").exit()).isEqualTo(Main.USAGE);
        assertThat(tools("bind", "jina", "reader").exit()).isEqualTo(Main.USAGE);
        assertThat(tools("frobnicate").err()).contains("unknown tools command");
        assertThat(main("apps", "list", "--mcp", "x").exit()).isEqualTo(Main.USAGE);
        assertThat(tools("list").out()).doesNotContain("http://a/mcp");
    }

    @Test
    void aRunsBindingsFileIsReadThroughTheSameChecksAndABadOneIsRefusedWithExit2() throws Exception {
        Path good = Files.writeString(dir.resolve("tools.yml"), """
                servers:
                  calc: {url: "http://127.0.0.1:9/mcp", headers: {X-Api-Key: k}}
                  db: {command: [mcp-db, --read-only], env: {DB_PASSWORD: p}}
                bindings:
                  - {provider: junjiem/db_query/db_query, tool: sql_execute, mcp: {server: db, tool: query}}
                """);
        Path bad = Files.writeString(dir.resolve("bad.yml"), """
                bindings:
                  - {provider: jina, tool: reader, mcp: {server: ghost, tool: read}}
                """);
        String workflow = SharedFolder.require("conformance/dify-dsl/conditional_hello_branching_workflow.yml")
                .toString();

        Outcome ran = main("run", workflow, "--inputs", "{\"query\": \"hello\"}", "--tools", good.toString());
        Outcome refused = main("run", workflow, "--inputs", "{\"query\": \"hello\"}", "--tools", bad.toString());

        assertThat(ran.exit()).as(ran.err()).isZero();
        assertThat(refused.exit()).isEqualTo(Main.USAGE);
        assertThat(refused.err()).contains("bad.yml").contains("No MCP server named 'ghost'");
        assertThat(refused.out()).isEmpty();
    }

    @Test
    void aToolIsBoundToAnOpenApiOperationOfAFileWhoseTextIsKeptOrRefusedNamingTheOperationsThereAre()
            throws Exception {
        Path document = Files.writeString(dir.resolve("weather.yaml"), """
                openapi: 3.0.0
                servers: [{url: "https://api.example.com"}]
                paths:
                  /forecast: {get: {operationId: getForecast}}
                """);

        Outcome bound = tools("bind", "weather", "forecast", "--openapi", document.toString(), "getForecast");
        Outcome refused = tools("bind", "weather", "other", "--openapi", document.toString(), "nope");
        Files.delete(document);

        assertThat(bound.exit()).as(bound.err()).isZero();
        assertThat(bound.out()).contains("weather/forecast runs as the operation getForecast of its OpenAPI document");
        assertThat(refused.exit()).isEqualTo(Main.FAILED);
        assertThat(refused.err()).contains("no operation with operationId 'nope'; its operations are: getForecast");
        assertThat(tools("list").out()).contains("weather/forecast", "openapi (inline document) getForecast")
                .doesNotContain("weather/other");
    }

    @Test
    void anApiToolsKeyIsKeptFromTheCommandLineAndListedByWhereItGoesOnly() throws Exception {
        Path document = Files.writeString(dir.resolve("weather.yaml"), """
                openapi: 3.0.0
                servers: [{url: "https://api.example.com"}]
                paths:
                  /forecast: {get: {operationId: getForecast}}
                """);

        Outcome bound = tools("bind", "weather", "forecast", "--openapi", document.toString(), "getForecast",
                "--api-key", "sk-weather-987", "--api-key-prefix", "bearer");
        Outcome queried = tools("bind", "maps", "geocode", "--openapi", document.toString(), "getForecast",
                "--api-key", "k-maps-1", "--api-key-query", "key");
        Outcome mixed = tools("bind", "maps", "other", "--openapi", document.toString(), "getForecast",
                "--api-key", "k", "--api-key-query", "key", "--api-key-header", "X-Key");
        Outcome listed = tools("list");

        assertThat(bound.exit()).as(bound.err()).isZero();
        assertThat(queried.exit()).as(queried.err()).isZero();
        assertThat(mixed.exit()).isEqualTo(Main.USAGE);
        assertThat(listed.out()).contains("getForecast  key: header Authorization (bearer)", "key: query key")
                .doesNotContain("sk-weather-987").doesNotContain("k-maps-1");
        assertThat(bound.out() + bound.err()).doesNotContain("sk-weather-987");
    }

    @Test
    void aToolIsBoundOnlyToAnAppThatExists() {
        Outcome refused = tools("bind", "summariser", "summarise", "--app", "ghost");

        assertThat(refused.exit()).isEqualTo(Main.FAILED);
        assertThat(refused.err()).contains("No app with id 'ghost' exists on this server");
        assertThat(tools("bind", "a", "b", "--app", "x", "--mcp", "s", "t").exit()).isEqualTo(Main.USAGE);
    }

    @Test
    void aOneOffRunCallsAnApiToolOfItsBindingsFileAndRefusesAnAppBinding() throws Exception {
        try (dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget api = new dev.hexaflow.adapters.nodes.fakes
                .FakeHttpTarget()) {
            String document = api.serve("shop.json", "application/json", ("{\"openapi\": \"3.0.0\", \"servers\": "
                    + "[{\"url\": \"" + api.url("") + "\"}], \"paths\": {\"/shops/{shop}/items\": {\"get\": {"
                    + "\"operationId\": \"listItems\", \"parameters\": [{\"name\": \"shop\", \"in\": \"path\", "
                    + "\"required\": true}]}}}}").getBytes(StandardCharsets.UTF_8));
            Path tools = Files.writeString(dir.resolve("tools.yml"), """
                    bindings:
                      - provider: 5b6e3c1a-8f3e-4d1c-9c55-0f1b2a3c4d5e
                        tool: listItems
                        openapi: {document: "%s", operation: listItems,
                                  auth: {type: api_key_query, param: key, value: k-shop-7}}
                    """.formatted(document));
            Path withApp = Files.writeString(dir.resolve("app.yml"), """
                    bindings:
                      - {provider: echo, tool: echo, app: some-app}
                    """);
            Path workflow = Path.of(ToolsCommandsTest.class.getResource("/apps/api-tool.yml").toURI());
            Map<String, String> env = Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1");

            Outcome ran = main(env, "run", workflow.toString(), "--inputs", "{\"shop\": \"north\"}", "--tools",
                    tools.toString());
            Outcome refused = main(env, "run", workflow.toString(), "--inputs", "{\"shop\": \"north\"}", "--tools",
                    withApp.toString());

            assertThat(ran.exit()).as(ran.err()).isZero();
            assertThat(ran.out()).contains("echo");
            assertThat(api.seen().get(api.seen().size() - 1).uri()).startsWith("/shops/north/items")
                    .endsWith("key=k-shop-7");
            assertThat(refused.exit()).isEqualTo(Main.USAGE);
            assertThat(refused.err()).contains("a one-off run has none");
        }
    }
}
