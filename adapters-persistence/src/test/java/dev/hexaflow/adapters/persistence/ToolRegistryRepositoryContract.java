package dev.hexaflow.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link ToolRegistryRepository} promises; each adapter runs it by extending this class. */
abstract class ToolRegistryRepositoryContract {

    protected abstract ToolRegistryRepository repository();

    private static McpServer http(String name, String url) {
        return new McpServer(name, new McpServer.StreamableHttp(URI.create(url), Map.of("Authorization",
                "Bearer s3cret", "X-Team", "ops")));
    }

    private static McpServer stdio(String name) {
        return new McpServer(name, new McpServer.Stdio(List.of("npx", "-y", "@acme/mcp-db", "--read-only"),
                Map.of("DB_PASSWORD", "hunter2")));
    }

    private static ToolBinding bound(String provider, String tool, String server) {
        return new ToolBinding(provider, tool, new ToolBinding.McpTool(server, tool + "_remote"));
    }

    @Test
    void aServerOfEitherTransportIsKeptWholeWithItsSecrets() {
        repository().saveServer(http("search", "https://mcp.example.com/mcp?team=1"));
        repository().saveServer(stdio("db"));

        assertThat(repository().server("search")).contains(http("search", "https://mcp.example.com/mcp?team=1"));
        assertThat(repository().server("db")).contains(stdio("db"));
        assertThat(repository().server("other")).isEmpty();
    }

    @Test
    void serversAreListedByName() {
        repository().saveServer(stdio("zeta"));
        repository().saveServer(http("alpha", "http://a.example/mcp"));

        assertThat(repository().servers()).extracting(McpServer::name).containsExactly("alpha", "zeta");
    }

    @Test
    void savingAServerAgainReplacesItEvenAcrossTransports() {
        repository().saveServer(http("search", "https://old.example/mcp"));

        repository().saveServer(stdio("search"));

        assertThat(repository().servers()).containsExactly(stdio("search"));
    }

    @Test
    void removingAServerAnswersWhetherThereWasOne() {
        repository().saveServer(stdio("db"));

        assertThat(repository().removeServer("db")).isTrue();
        assertThat(repository().removeServer("db")).isFalse();
        assertThat(repository().servers()).isEmpty();
    }

    @Test
    void aBindingIsFoundByProviderAndToolAndReplacedBySavingAgain() {
        repository().saveBinding(bound("junjiem/db_query/db_query", "sql_execute", "db"));
        repository().saveBinding(new ToolBinding("junjiem/db_query/db_query", "sql_execute",
                new ToolBinding.McpTool("db2", "query")));

        assertThat(repository().binding("junjiem/db_query/db_query", "sql_execute")).contains(new ToolBinding(
                "junjiem/db_query/db_query", "sql_execute", new ToolBinding.McpTool("db2", "query")));
        assertThat(repository().binding("junjiem/db_query/db_query", "other")).isEmpty();
        assertThat(repository().bindings()).hasSize(1);
    }

    @Test
    void bindingsAreListedByProviderThenTool() {
        repository().saveBinding(bound("tavily", "search", "web"));
        repository().saveBinding(bound("jina", "reader", "web"));
        repository().saveBinding(bound("jina", "embed", "web"));

        assertThat(repository().bindings()).extracting(ToolBinding::label)
                .containsExactly("jina/embed", "jina/reader", "tavily/search");
    }

    @Test
    void removingABindingAnswersWhetherThereWasOne() {
        repository().saveBinding(bound("jina", "reader", "web"));

        assertThat(repository().removeBinding("jina", "reader")).isTrue();
        assertThat(repository().removeBinding("jina", "reader")).isFalse();
        assertThat(repository().bindings()).isEmpty();
    }

    @Test
    void bindingsToAnOpenApiOperationAndToAnAppAreKeptWholeAndReplaceAnyKind() {
        String inline = "openapi: 3.0.0\npaths: {}\n";
        repository().saveBinding(bound("weather", "forecast", "web"));
        repository().saveBinding(new ToolBinding("weather", "forecast",
                new ToolBinding.OpenApiOperation(inline, "getForecast")));
        repository().saveBinding(new ToolBinding("summariser", "summarise", new ToolBinding.App("app-42")));

        assertThat(repository().binding("weather", "forecast")).contains(new ToolBinding("weather", "forecast",
                new ToolBinding.OpenApiOperation(inline, "getForecast")));
        assertThat(repository().binding("summariser", "summarise")).contains(new ToolBinding("summariser",
                "summarise", new ToolBinding.App("app-42")));
        assertThat(repository().bindings()).hasSize(2);
    }

    @Test
    void anApiToolsCredentialIsKeptWithItsBindingAndAnOlderBindingHasNone() {
        String inline = "openapi: 3.0.0\npaths: {}\n";
        ToolBinding header = new ToolBinding("weather", "forecast", new ToolBinding.OpenApiOperation(inline,
                "getForecast", new ApiCredential.ApiKeyHeader("X-Api-Key", ApiCredential.Prefix.BEARER, "s3cr3t")));
        ToolBinding query = new ToolBinding("maps", "geocode", new ToolBinding.OpenApiOperation(inline, "geocode",
                new ApiCredential.ApiKeyQuery("key", "k3y")));
        repository().saveBinding(header);
        repository().saveBinding(query);
        repository().saveBinding(new ToolBinding("plain", "call", new ToolBinding.OpenApiOperation(inline, "x")));

        assertThat(repository().binding("weather", "forecast")).contains(header);
        assertThat(repository().binding("maps", "geocode")).contains(query);
        assertThat(repository().binding("plain", "call").orElseThrow().target())
                .isEqualTo(new ToolBinding.OpenApiOperation(inline, "x", new ApiCredential.None()));
    }
}
