package dev.hexaflow.application.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.UnbindToolCommand;
import dev.hexaflow.application.tools.service.BoundTools;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.application.tools.service.McpToolAddresses;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.domain.workflow.AppInfo;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a workflow's tool runs, as the runners read it from the registry at each call: changes made through the
 * binding and server use cases, on the in-memory registry, show at the next lookup.
 */
class ToolAddressesTest {

    private final InMemoryToolRegistryRepository registry = new InMemoryToolRegistryRepository();
    private final InMemoryAppRepository apps = new InMemoryAppRepository();
    private final ManageMcpServersService servers = new ManageMcpServersService(registry);
    private final ManageToolBindingsService bindings = new ManageToolBindingsService(registry, apps, operation -> {
    });
    private final McpToolAddresses addresses = new McpToolAddresses(registry);
    private final BoundTools bound = new BoundTools(registry);

    ToolAddressesTest() {
        apps.add(new App("app-1", "Echo", "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Echo", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "sitecode1", true, 1));
    }

    private static McpServer server(String name, String url) {
        return new McpServer(name, new McpServer.StreamableHttp(URI.create(url), Map.of()));
    }

    private void bindMcp(String provider, String tool, String server, String serverTool) {
        bindings.bind(new BindToolCommand(new ToolBinding(provider, tool, new ToolBinding.McpTool(server,
                serverTool))));
    }

    @Test
    void aBoundToolIsAddressedAtItsServerUnderTheToolNameTheBindingGives() {
        servers.register(new RegisterMcpServerCommand(server("search", "https://mcp.example/a")));
        bindMcp("tavily", "tavily_search", "search", "web_search");

        McpToolAddress address = addresses.find(new ToolRef(ToolProviderType.PLUGIN, "langgenius/tavily/tavily",
                "tavily_search")).orElseThrow();

        assertThat(address.server().name()).isEqualTo("search");
        assertThat(address.tool()).isEqualTo("web_search");
    }

    @Test
    void anUnboundMcpNodeIsAddressedAtTheServerItsProviderNamesWithTheSameTool() {
        servers.register(new RegisterMcpServerCommand(server("files", "https://mcp.example/files")));

        assertThat(addresses.find(new ToolRef(ToolProviderType.MCP, "files", "read_file")))
                .contains(new McpToolAddress(server("files", "https://mcp.example/files"), "read_file"));
        assertThat(addresses.find(new ToolRef(ToolProviderType.MCP, "unregistered", "read_file"))).isEmpty();
        assertThat(addresses.find(new ToolRef(ToolProviderType.BUILTIN, "files", "read_file"))).isEmpty();
    }

    @Test
    void aServerRegisteredAnewIsWhereTheNextCallGoes() {
        servers.register(new RegisterMcpServerCommand(server("search", "https://old.example/mcp")));
        bindMcp("tavily", "tavily_search", "search", "web_search");
        ToolRef ref = new ToolRef(ToolProviderType.PLUGIN, "tavily", "tavily_search");
        McpToolAddress before = addresses.find(ref).orElseThrow();

        servers.register(new RegisterMcpServerCommand(server("search", "https://new.example/mcp")));

        assertThat(before.server()).isEqualTo(server("search", "https://old.example/mcp"));
        assertThat(addresses.find(ref).orElseThrow().server()).isEqualTo(server("search", "https://new.example/mcp"));
    }

    @Test
    void anUnboundToolHasNoAddressAndAnMcpNodeBoundToAnAppHasNone() {
        servers.register(new RegisterMcpServerCommand(server("search", "https://mcp.example/a")));
        bindMcp("tavily", "tavily_search", "search", "web_search");
        ToolRef ref = new ToolRef(ToolProviderType.PLUGIN, "tavily", "tavily_search");

        bindings.unbind(new UnbindToolCommand("tavily", "tavily_search"));

        assertThat(addresses.find(ref)).isEmpty();
        // A binding to an app wins over an MCP node's own server, and is no MCP address.
        bindings.bind(new BindToolCommand(new ToolBinding("search", "web_search", new ToolBinding.App("app-1"))));
        assertThat(addresses.find(new ToolRef(ToolProviderType.MCP, "search", "web_search"))).isEmpty();
    }

    @Test
    void aBindingIsFoundOnlyAsTheKindItIs() {
        bindings.bind(new BindToolCommand(new ToolBinding("flows", "echo", new ToolBinding.App("app-1"))));
        bindings.bind(new BindToolCommand(new ToolBinding("weather", "get", new ToolBinding.OpenApiOperation(
                "https://api.example/openapi.json", "getWeather"))));
        ToolRef echo = new ToolRef(ToolProviderType.WORKFLOW, "flows", "echo");
        ToolRef weather = new ToolRef(ToolProviderType.API, "weather", "get");

        assertThat(bound.target(echo, ToolBinding.App.class)).contains(new ToolBinding.App("app-1"));
        assertThat(bound.target(echo, ToolBinding.OpenApiOperation.class)).isEmpty();
        assertThat(bound.target(weather, ToolBinding.OpenApiOperation.class).orElseThrow().operation())
                .isEqualTo("getWeather");
        assertThat(bound.target(weather, ToolBinding.App.class)).isEmpty();
    }

    @Test
    void aRebindingAppliesToTheNextLookup() {
        ToolRef echo = new ToolRef(ToolProviderType.WORKFLOW, "flows", "echo");
        apps.add(new App("app-2", "Other", "", AppInfo.WORKFLOW_MODE, "emoji", "🤖", "#FFF", List.of(),
                new SiteSettings("Other", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true, false),
                "sitecode2", true, 1));
        bindings.bind(new BindToolCommand(new ToolBinding("flows", "echo", new ToolBinding.App("app-1"))));

        boolean isNew = bindings.bind(new BindToolCommand(new ToolBinding("flows", "echo",
                new ToolBinding.App("app-2"))));

        assertThat(isNew).isFalse();
        assertThat(bound.target(echo, ToolBinding.App.class)).contains(new ToolBinding.App("app-2"));
        assertThat(registry.bindings()).hasSize(1);
    }
}
