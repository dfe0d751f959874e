package dev.hexaflow.application.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.ListToolsUseCase.ToolCatalogue;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import dev.hexaflow.application.tools.port.in.ToolRegistryException.Reason;
import dev.hexaflow.application.tools.port.in.UnbindToolCommand;
import dev.hexaflow.application.tools.service.ListToolsService;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.workflow.AppInfo;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The registry's rules as an operator meets them through the server, binding and listing use cases, on the
 * in-memory registry: what a binding may replace, which bindings hold a server, and what the catalogue shows.
 */
class ToolRegistryRulesTest {

    private final InMemoryToolRegistryRepository registry = new InMemoryToolRegistryRepository();
    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    /** The OpenAPI operations handed to the document check, which accepts every one. */
    private final List<ToolBinding.OpenApiOperation> checked = new ArrayList<>();
    private final ManageMcpServersService servers = new ManageMcpServersService(registry);
    private final ManageToolBindingsService bindings = new ManageToolBindingsService(registry, apps, checked::add);
    private final ListToolsService tools = new ListToolsService(registry, List.of("time/current_time"));

    ToolRegistryRulesTest() {
        apps.add(new App("app-1", "Summariser", "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Summariser", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "sitecode1", true, 1));
    }

    private void register(String name) {
        servers.register(new RegisterMcpServerCommand(new McpServer(name, new McpServer.StreamableHttp(
                URI.create("https://" + name + ".example/mcp"), Map.of()))));
    }

    private boolean bind(String provider, String tool, ToolBinding.Target target) {
        return bindings.bind(new BindToolCommand(new ToolBinding(provider, tool, target)));
    }

    @Test
    void theCatalogueShowsEachChangeAtOnceServersByNameAndBindingsByProviderThenTool() {
        register("search");
        register("files");
        bind("tavily", "search", new ToolBinding.McpTool("search", "web_search"));
        bind("flows", "summarise", new ToolBinding.App("app-1"));
        bind("flows", "echo", new ToolBinding.App("app-1"));

        ToolCatalogue catalogue = tools.list();

        assertThat(catalogue.builtIns()).containsExactly("time/current_time");
        assertThat(catalogue.servers()).extracting(McpServer::name).containsExactly("files", "search");
        assertThat(catalogue.bindings()).extracting(ToolBinding::label)
                .containsExactly("flows/echo", "flows/summarise", "tavily/search");
        bindings.unbind(new UnbindToolCommand("flows", "echo"));
        assertThat(tools.list().bindings()).hasSize(2);
    }

    @Test
    void aServerStartedAsALocalProcessIsKeptWithItsCommandAndEnvironment() {
        McpServer local = new McpServer("git", new McpServer.Stdio(List.of("uvx", "mcp-server-git"),
                Map.of("GIT_DIR", "/srv/repo")));

        assertThat(servers.register(new RegisterMcpServerCommand(local))).isTrue();

        assertThat(tools.list().servers()).containsExactly(local);
        assertThat(bind("git", "log", new ToolBinding.McpTool("git", "git_log"))).isTrue();
    }

    /** The server's own tools are checked when one is called, not when it is bound. */
    @Test
    void anMcpOrAppBindingNeedsNoDocumentCheckAndAnyToolNameOfARegisteredServerIsTaken() {
        register("search");

        bind("tavily", "anything", new ToolBinding.McpTool("search", "a_tool_the_server_may_lack"));
        bind("flows", "summarise", new ToolBinding.App("app-1"));

        assertThat(checked).isEmpty();
        assertThat(registry.bindings()).hasSize(2);
    }

    @Test
    void anOpenApiBindingIsCheckedWithItsCredentialAndKeptWithIt() {
        ApiCredential key = ApiCredential.of("api_key_header", "X-Api-Key", null, null, "secret");
        ToolBinding.OpenApiOperation weather = new ToolBinding.OpenApiOperation(
                "  https://api.example/openapi.json  ", " getWeather ", key);

        bind("weather", "now", weather);

        assertThat(checked).singleElement().satisfies(operation -> {
            assertThat(operation.document()).isEqualTo("https://api.example/openapi.json");
            assertThat(operation.operation()).isEqualTo("getWeather");
            assertThat(operation.byUrl()).isTrue();
            assertThat(operation.credential()).isEqualTo(key);
        });
        assertThat(registry.binding("weather", "now").orElseThrow().target()).isEqualTo(weather);
    }

    @Test
    void aRefusedRebindingLeavesTheBindingThatWasThere() {
        register("search");
        bind("tavily", "search", new ToolBinding.McpTool("search", "web_search"));

        assertThatThrownBy(() -> bind("tavily", "search", new ToolBinding.McpTool("gone", "web_search")))
                .isInstanceOfSatisfying(ToolRegistryException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.INVALID));
        assertThatThrownBy(() -> bind("tavily", "search", new ToolBinding.App("app-none")))
                .isInstanceOf(ToolRegistryException.class);

        assertThat(registry.binding("tavily", "search").orElseThrow().target())
                .isEqualTo(new ToolBinding.McpTool("search", "web_search"));
    }

    @Test
    void aToolMovedFromAServerToAnAppNoLongerHoldsTheServer() {
        register("search");
        bind("tavily", "search", new ToolBinding.McpTool("search", "web_search"));

        boolean isNew = bind("tavily", "search", new ToolBinding.App("app-1"));
        servers.remove("search");

        assertThat(isNew).isFalse();
        assertThat(registry.servers()).isEmpty();
        assertThat(registry.binding("tavily", "search").orElseThrow().target()).isEqualTo(new ToolBinding.App(
                "app-1"));
    }

    @Test
    void aServerIsHeldOnlyByItsOwnBindingsAndTheRefusalNamesNoOther() {
        register("search");
        register("files");
        bind("tavily", "search", new ToolBinding.McpTool("search", "web_search"));
        bind("fs", "read", new ToolBinding.McpTool("files", "read_file"));
        bind("flows", "summarise", new ToolBinding.App("app-1"));

        assertThatThrownBy(() -> servers.remove("files")).isInstanceOfSatisfying(ToolRegistryException.class, e -> {
            assertThat(e.reason()).isEqualTo(Reason.IN_USE);
            assertThat(e.getMessage()).isEqualTo("The MCP server 'files' is bound to fs/read; unbind them first");
        });
        bindings.unbind(new UnbindToolCommand("fs", "read"));
        servers.remove("files");

        assertThat(registry.servers()).extracting(McpServer::name).containsExactly("search");
        assertThat(registry.bindings()).extracting(ToolBinding::label).containsExactly("flows/summarise",
                "tavily/search");
    }

    @Test
    void aDifyProviderIsOneToolInEitherSpellingWhileAnotherPluginKeepsItsFullId() {
        register("time");
        bind("time", "current_time", new ToolBinding.McpTool("time", "now"));
        bind("junjiem/db_query/db_query", "query", new ToolBinding.McpTool("time", "now"));

        boolean again = bind("langgenius/time/time", "current_time", new ToolBinding.McpTool("time", "today"));
        bindings.unbind(new UnbindToolCommand("langgenius/time/time", "current_time"));

        assertThat(again).isFalse();
        assertThat(registry.bindings()).extracting(ToolBinding::label).containsExactly("junjiem/db_query/db_query/"
                + "query");
        assertThatThrownBy(() -> bindings.unbind(new UnbindToolCommand("db_query", "query")))
                .isInstanceOfSatisfying(ToolRegistryException.class, e -> assertThat(e.reason())
                        .isEqualTo(Reason.NOT_FOUND));
    }
}
