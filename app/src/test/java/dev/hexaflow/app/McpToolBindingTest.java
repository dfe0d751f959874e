package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.nodes.tool.mcp.LoopbackMcpServer;
import dev.hexaflow.adapters.nodes.tool.mcp.McpSdkToolRunner;
import dev.hexaflow.adapters.persistence.memory.InMemoryToolRegistryRepository;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.application.tools.service.McpToolAddresses;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The registry and the MCP runner as app wires them: a workflow's tool bound through the use cases, and a Dify
 * MCP tool node naming a registered server, each called on a real MCP server on loopback.
 */
class McpToolBindingTest {

    private final InMemoryToolRegistryRepository registry = new InMemoryToolRegistryRepository();
    private final ManageMcpServersService servers = new ManageMcpServersService(registry);
    private final ManageToolBindingsService bindings = new ManageToolBindingsService(registry,
            new dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository(), operation -> { });
    private final McpSdkToolRunner runner = new McpSdkToolRunner(new McpToolAddresses(registry)::find,
            new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")), Duration.ofSeconds(5));
    private final LoopbackMcpServer calc;

    McpToolBindingTest() throws Exception {
        calc = new LoopbackMcpServer("key-1");
        register("calc", calc, "key-1");
    }

    @AfterEach
    void close() throws Exception {
        runner.close();
        calc.close();
    }

    private void register(String name, LoopbackMcpServer server, String key) {
        servers.register(new RegisterMcpServerCommand(new McpServer(name, new McpServer.StreamableHttp(server.url(),
                Map.of("X-Api-Key", key)))));
    }

    @Test
    void aPluginToolBoundToAServersToolRunsThere() {
        bindings.bind(new BindToolCommand(new ToolBinding("acme/math/math", "plus",
                new ToolBinding.McpTool("calc", "add"))));

        var messages = runner.run(new ToolRef(ToolProviderType.PLUGIN, "acme/math/math", "plus"),
                Map.of("a", 1, "b", 41), StopSignal.NEVER);

        assertThat(messages).contains(new ToolMessage.Json(Map.of("sum", 42.0)));
    }

    @Test
    void aDifyMcpToolNodeRunsOnTheServerItsProviderNamesWithNoBinding() {
        var messages = runner.run(new ToolRef(ToolProviderType.MCP, "calc", "echo"), Map.of("text", "hi"),
                StopSignal.NEVER);

        assertThat(messages).containsExactly(new ToolMessage.Text("echo: hi"));
    }

    @Test
    void aToolNeitherBoundNorOfARegisteredServerIsNotTheMcpRunnersToRun() {
        assertThat(runner.describe(new ToolRef(ToolProviderType.PLUGIN, "acme/math/math", "plus"))).isEmpty();
        assertThat(runner.describe(new ToolRef(ToolProviderType.MCP, "other", "echo"))).isEmpty();
        assertThat(runner.describe(new ToolRef(ToolProviderType.MCP, "calc", "echo"))).isPresent();
    }

    @Test
    void aServerRegisteredAnewIsCalledAtItsNewAddressFromTheNextCall() throws Exception {
        ToolRef echo = new ToolRef(ToolProviderType.MCP, "calc", "echo");
        runner.run(echo, Map.of("text", "before"), StopSignal.NEVER);
        try (LoopbackMcpServer moved = new LoopbackMcpServer("key-2")) {
            register("calc", moved, "key-2");

            runner.run(echo, Map.of("text", "after"), StopSignal.NEVER);

            assertThat(moved.handshakes()).isEqualTo(1);
        }
    }
}
