package dev.hexaflow.application.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import dev.hexaflow.application.tools.port.in.ToolRegistryException.Reason;
import dev.hexaflow.application.tools.port.in.UnbindToolCommand;
import dev.hexaflow.application.tools.port.out.OpenApiDocuments;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Registering MCP servers and binding tools, on the in-memory tool registry and app repository. */
class ToolRegistryUseCasesTest {

    private final InMemoryToolRegistryRepository registry = new InMemoryToolRegistryRepository();
    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    /** The OpenAPI operations checked, and the one operation id the fake documents hold. */
    private final List<String> checked = new ArrayList<>();
    private final OpenApiDocuments openApi = operation -> {
        checked.add(operation.operation());
        if (!operation.operation().equals("getWeather")) {
            throw new OpenApiDocuments.UnusableOperationException("The document has no operation "
                    + operation.operation());
        }
    };
    private final ManageMcpServersService servers = new ManageMcpServersService(registry);
    private final ManageToolBindingsService bindings = new ManageToolBindingsService(registry, apps, openApi);

    private static McpServer server(String name, String url) {
        return new McpServer(name, new McpServer.StreamableHttp(URI.create(url), Map.of("Authorization", "k")));
    }

    private static BindToolCommand mcp(String provider, String tool, String server) {
        return new BindToolCommand(new ToolBinding(provider, tool, new ToolBinding.McpTool(server, tool)));
    }

    @Test
    void registeringAServerAgainReplacesItAndTellsWhetherTheNameWasNew() {
        boolean first = servers.register(new RegisterMcpServerCommand(server("search", "https://a.example/mcp")));
        boolean again = servers.register(new RegisterMcpServerCommand(server("search", "https://b.example/mcp")));

        assertThat(first).isTrue();
        assertThat(again).isFalse();
        assertThat(registry.servers()).singleElement().extracting(McpServer::endpoint)
                .isEqualTo(new McpServer.StreamableHttp(URI.create("https://b.example/mcp"), Map.of("Authorization",
                        "k")));
    }

    @Test
    void aToolBindsOnlyToARegisteredServerAndRebindingReplacesTheBinding() {
        assertRefused(() -> bindings.bind(mcp("tavily", "search", "search")), Reason.INVALID,
                "No MCP server named 'search' is registered");
        assertThat(registry.bindings()).isEmpty();

        servers.register(new RegisterMcpServerCommand(server("search", "https://a.example/mcp")));
        servers.register(new RegisterMcpServerCommand(server("other", "https://o.example/mcp")));
        boolean first = bindings.bind(mcp("tavily", "search", "search"));
        boolean again = bindings.bind(mcp("tavily", "search", "other"));

        assertThat(first).isTrue();
        assertThat(again).isFalse();
        assertThat(registry.bindings()).singleElement().extracting(ToolBinding::target)
                .isEqualTo(new ToolBinding.McpTool("other", "search"));
    }

    @Test
    void aToolBindsToAnAppOnlyOnceTheAppExists() {
        BindToolCommand toApp = new BindToolCommand(new ToolBinding("helpers", "summarise",
                new ToolBinding.App("app-1")));

        assertRefused(() -> bindings.bind(toApp), Reason.INVALID, "No app with id 'app-1' exists on this server");
        apps.add(new App("app-1", "Summariser", "", "workflow", "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Summariser", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "sitecode1", true, 1));

        assertThat(bindings.bind(toApp)).isTrue();
        assertThat(registry.binding("helpers", "summarise")).isPresent();
    }

    @Test
    void anOpenApiOperationTheDocumentLacksIsRefusedWithTheDocumentsReason() {
        String document = "openapi: 3.0.0\npaths: {}\n";
        BindToolCommand missing = new BindToolCommand(new ToolBinding("weather", "forecast",
                new ToolBinding.OpenApiOperation(document, "getForecast")));
        BindToolCommand present = new BindToolCommand(new ToolBinding("weather", "now",
                new ToolBinding.OpenApiOperation(document, "getWeather")));

        assertRefused(() -> bindings.bind(missing), Reason.INVALID, "The document has no operation getForecast");
        assertThat(bindings.bind(present)).isTrue();

        assertThat(checked).containsExactly("getForecast", "getWeather");
        assertThat(registry.bindings()).extracting(ToolBinding::label).containsExactly("weather/now");
    }

    @Test
    void aServerToolsAreBoundToCannotBeRemovedUntilTheyAreUnbound() {
        servers.register(new RegisterMcpServerCommand(server("search", "https://a.example/mcp")));
        bindings.bind(mcp("tavily", "search", "search"));
        bindings.bind(mcp("tavily", "extract", "search"));

        assertThatThrownBy(() -> servers.remove("search")).isInstanceOfSatisfying(ToolRegistryException.class,
                e -> {
                    assertThat(e.reason()).isEqualTo(Reason.IN_USE);
                    assertThat(e.getMessage()).contains("tavily/search", "tavily/extract");
                });
        assertThat(registry.server("search")).isPresent();

        bindings.unbind(new UnbindToolCommand("tavily", "search"));
        bindings.unbind(new UnbindToolCommand("tavily", "extract"));
        servers.remove("search");

        assertThat(registry.servers()).isEmpty();
        assertRefused(() -> servers.remove("search"), Reason.NOT_FOUND, "No MCP server named 'search'");
    }

    @Test
    void aDifyPluginProviderNamesTheSameToolAsItsShortNameAndAnUnboundToolIsNotFound() {
        servers.register(new RegisterMcpServerCommand(server("time", "https://t.example/mcp")));
        bindings.bind(mcp("langgenius/time/time", "current_time", "time"));

        assertThat(registry.binding("time", "current_time")).isPresent();
        bindings.unbind(new UnbindToolCommand("time", "current_time"));

        assertThat(registry.bindings()).isEmpty();
        assertRefused(() -> bindings.unbind(new UnbindToolCommand("time", "current_time")), Reason.NOT_FOUND,
                "The tool time/current_time is not bound");
    }

    private static void assertRefused(ThrowingCallable call, Reason reason, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ToolRegistryException.class, e -> {
            assertThat(e.reason()).isEqualTo(reason);
            assertThat(e.getMessage()).startsWith(message);
        });
    }
}
