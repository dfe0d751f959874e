package dev.hexaflow.adapters.nodes.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * MCP tools called through the SDK against real MCP servers made with the SDK's server side: one over Streamable
 * HTTP on loopback, one over stdio as a java process; a slow tool, a dead server, an error answer, arguments of
 * the wrong type and a stop during a call.
 */
class McpSdkToolRunnerTest {

    private static final OutboundExchange LOOPBACK_ALLOWED =
            new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", ""));

    /** A Dify tool node's reference to the tool {@code name} of the server {@code server}, as an MCP node has it. */
    private static ToolRef mcp(String server, String name) {
        return new ToolRef(ToolProviderType.MCP, server, name);
    }

    /** The lookup app builds on the registry: here, a Dify MCP node names the one server by its name. */
    private static java.util.function.Function<ToolRef, Optional<McpToolAddress>> only(McpServer server) {
        return ref -> ref.provider().equals(server.name()) ? Optional.of(new McpToolAddress(server, ref.tool()))
                : Optional.empty();
    }

    @Nested
    class OverStreamableHttp {

        private final LoopbackMcpServer server;
        private final McpServer registered;
        private McpSdkToolRunner runner;

        OverStreamableHttp() throws Exception {
            server = new LoopbackMcpServer("s3cret");
            registered = new McpServer("calc", new McpServer.StreamableHttp(server.url(),
                    Map.of("X-Api-Key", "s3cret")));
            runner = new McpSdkToolRunner(only(registered), LOOPBACK_ALLOWED, Duration.ofSeconds(5));
        }

        @AfterEach
        void close() throws Exception {
            runner.close();
            server.close();
        }

        @Test
        void aToolIsCalledWithTheServersHeadersAndItsJsonTextBecomesAJsonMessage() {
            List<ToolMessage> messages = runner.run(mcp("calc", "add"), Map.of("a", 2, "b", 3), StopSignal.NEVER);

            assertThat(messages).containsExactly(new ToolMessage.Json(Map.of("sum", 5.0)),
                    new ToolMessage.Variable("sum", 5.0));
        }

        @Test
        void theDescriptionCarriesTheToolsInputSchema() {
            ToolDescription description = runner.describe(mcp("calc", "add")).orElseThrow();

            assertThat(description.description()).isEqualTo("Adds two numbers");
            assertThat(description.inputSchema()).containsEntry("required", List.of("a", "b"));
            assertThat(runner.describe(mcp("elsewhere", "add"))).isEmpty();
        }

        @Test
        void callsReuseOneSession() {
            for (int i = 0; i < 3; i++) {
                runner.run(mcp("calc", "echo"), Map.of("text", "hi " + i), StopSignal.NEVER);
            }

            assertThat(server.handshakes()).isEqualTo(1);
        }

        @Test
        void argumentsOfTheWrongTypeAreRefusedBeforeTheCall() {
            assertThatThrownBy(() -> runner.run(mcp("calc", "add"), Map.of("a", "two", "b", 3), StopSignal.NEVER))
                    .isInstanceOf(ToolException.class)
                    .hasMessageContaining("do not match the input schema of the MCP tool add of server calc")
                    .hasMessageContaining("a");
        }

        @Test
        void blankArgumentsAreLeftOutAsDifyDoesSoARequiredOneIsMissing() {
            assertThatThrownBy(() -> runner.run(mcp("calc", "echo"), Map.of("text", "  "), StopSignal.NEVER))
                    .isInstanceOf(ToolException.class)
                    .hasMessageContaining("text");
        }

        @Test
        void aToolAnsweringAnErrorFailsWithItsText() {
            assertThatThrownBy(() -> runner.run(mcp("calc", "broken"), Map.of(), StopSignal.NEVER))
                    .isInstanceOf(ToolException.class)
                    .hasMessage("The MCP tool broken of server calc answered an error: the disk is on fire");
        }

        @Test
        void anUnknownToolIsNamedWithTheToolsTheServerHas() {
            assertThatThrownBy(() -> runner.run(mcp("calc", "divide"), Map.of(), StopSignal.NEVER))
                    .isInstanceOf(ToolException.class)
                    .hasMessageContaining("has no tool named 'divide'")
                    .hasMessageContaining("add");
        }

        @Test
        void aSlowToolFailsWithinTheTimeLimit() {
            runner.close();
            runner = new McpSdkToolRunner(only(registered), LOOPBACK_ALLOWED, Duration.ofSeconds(1));
            long start = System.nanoTime();

            assertThatThrownBy(() -> runner.run(mcp("calc", "slow"), Map.of("seconds", 10), StopSignal.NEVER))
                    .isInstanceOf(ToolException.class)
                    .hasMessage("The MCP server calc did not answer the call of tool slow within 1s");
            // Well before the tool's 10 s, with room for a loaded machine's handshake.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
        }

        @Test
        void aStopEndsACallInFlightWithinASecond() throws Exception {
            StopSwitch stop = new StopSwitch();
            CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> {
                try {
                    runner.run(mcp("calc", "slow"), Map.of("seconds", 4), stop);
                    return null;
                } catch (RuntimeException e) {
                    return e;
                }
            });
            Thread.sleep(500);
            long stopped = System.nanoTime();
            stop.pull();

            Throwable failure = call.get(2, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(Duration.ofSeconds(1));
            assertThat(failure).isInstanceOf(ToolException.class).hasMessageContaining("the run was stopped");
        }

        @Test
        void aWrongKeyFailsClearly() {
            McpServer wrongKey = new McpServer("calc", new McpServer.StreamableHttp(server.url(),
                    Map.of("X-Api-Key", "guess")));
            try (McpSdkToolRunner guessing = new McpSdkToolRunner(only(wrongKey), LOOPBACK_ALLOWED,
                    Duration.ofSeconds(5))) {
                assertThatThrownBy(() -> guessing.run(mcp("calc", "add"), Map.of("a", 1, "b", 1), StopSignal.NEVER))
                        .isInstanceOf(ToolException.class)
                        .hasMessageStartingWith("The MCP server calc cannot be reached: ");
            }
        }

        @Test
        void theOutboundPolicyRefusesLoopbackUnlessAllowed() {
            try (McpSdkToolRunner held = new McpSdkToolRunner(only(registered),
                    new OutboundExchange(() -> OutboundPolicy.DEFAULT), Duration.ofSeconds(5))) {
                assertThatThrownBy(() -> held.run(mcp("calc", "add"), Map.of("a", 1, "b", 1), StopSignal.NEVER))
                        .isInstanceOf(ToolException.class)
                        .hasMessageContaining("127.0.0.1")
                        .hasMessageContaining("HEXAFLOW_OUTBOUND_ALLOW");
            }
        }

        @Test
        void aServerRegisteredAnewIsReachedAtItsNewAddress() throws Exception {
            runner.run(mcp("calc", "echo"), Map.of("text", "first"), StopSignal.NEVER);
            try (LoopbackMcpServer moved = new LoopbackMcpServer("other")) {
                McpServer[] current = {new McpServer("calc", new McpServer.StreamableHttp(moved.url(),
                        Map.of("X-Api-Key", "other")))};
                try (McpSdkToolRunner following = new McpSdkToolRunner(ref -> Optional.of(
                        new McpToolAddress(current[0], ref.tool())), LOOPBACK_ALLOWED, Duration.ofSeconds(5))) {
                    following.run(mcp("calc", "echo"), Map.of("text", "a"), StopSignal.NEVER);
                    current[0] = registered;
                    following.run(mcp("calc", "echo"), Map.of("text", "b"), StopSignal.NEVER);
                }
                assertThat(moved.handshakes()).isEqualTo(1);
            }
            assertThat(server.handshakes()).isEqualTo(2);
        }
    }

    @Test
    void aDeadServerFailsClearlyAndQuickly() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        McpServer dead = new McpServer("gone", new McpServer.StreamableHttp(URI.create("http://127.0.0.1:" + port
                + "/mcp"), Map.of()));
        long start = System.nanoTime();
        // Quickly: long before the call's time limit, which a refused connection must not wait out.
        try (McpSdkToolRunner runner = new McpSdkToolRunner(only(dead), LOOPBACK_ALLOWED, Duration.ofSeconds(30))) {
            assertThatThrownBy(() -> runner.run(mcp("gone", "add"), Map.of(), StopSignal.NEVER))
                    .isInstanceOf(ToolException.class)
                    .hasMessageStartingWith("The MCP server gone cannot be reached: ");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Nested
    class OverStdio {

        private final McpServer registered = new McpServer("local", new McpServer.Stdio(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), StdioMcpServerMain.class.getName()), Map.of("LANG", "C")));
        private final McpSdkToolRunner runner = new McpSdkToolRunner(only(registered), LOOPBACK_ALLOWED,
                Duration.ofSeconds(20));

        @AfterEach
        void close() {
            runner.close();
        }

        @Test
        void aToolOfAProcessIsCalledAndItsTextComesBack() {
            List<ToolMessage> first = runner.run(mcp("local", "echo"), Map.of("text", "hello"), StopSignal.NEVER);
            List<ToolMessage> second = runner.run(mcp("local", "add"), Map.of("a", 1, "b", 2), StopSignal.NEVER);

            assertThat(first).containsExactly(new ToolMessage.Text("echo: hello"));
            assertThat(second).contains(new ToolMessage.Json(Map.of("sum", 3.0)));
        }

        @Test
        void aCommandThatDoesNotStartFailsClearly() {
            McpServer missing = new McpServer("nowhere", new McpServer.Stdio(List.of("/no/such/mcp-server"),
                    Map.of()));
            try (McpSdkToolRunner failing = new McpSdkToolRunner(only(missing), LOOPBACK_ALLOWED,
                    Duration.ofSeconds(5))) {
                assertThatThrownBy(() -> failing.run(mcp("nowhere", "echo"), Map.of(), StopSignal.NEVER))
                        .isInstanceOf(ToolException.class)
                        .hasMessageStartingWith("The MCP server nowhere");
            }
        }
    }
}
