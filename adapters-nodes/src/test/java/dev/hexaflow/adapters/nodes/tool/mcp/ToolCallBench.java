package dev.hexaflow.adapters.nodes.tool.mcp;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.adapters.nodes.tool.JdkTimeToolRunner;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The cost of one tool call: a built-in (time/current_time, in process) and an MCP tool over Streamable HTTP on
 * loopback (the SDK on both sides). Not a test (surefire does not pick it up by name); run it with
 * {@code mvn -B -pl adapters-nodes -am test -Dtest=ToolCallBench -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class ToolCallBench {

    static void measure(String name, ToolRunner runner, ToolRef ref, Map<String, Object> args, int warm, int n) {
        for (int i = 0; i < warm; i++) {
            runner.run(ref, args, StopSignal.NEVER);
        }
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            runner.run(ref, args, StopSignal.NEVER);
            t[i] = System.nanoTime() - s;
        }
        Arrays.sort(t);
        System.out.printf("BENCH %s n=%d p50=%.3f ms p99=%.3f ms%n", name, n, t[n / 2] / 1e6, t[(int) (n * 0.99)] / 1e6);
    }

    @Test
    void toolCalls() throws Exception {
        measure("builtin time/current_time", new JdkTimeToolRunner(Clock.systemUTC()),
                new ToolRef(ToolProviderType.BUILTIN, "time", "current_time"), Map.of("timezone", "Asia/Tokyo"),
                20000, 50000);
        try (LoopbackMcpServer server = new LoopbackMcpServer("k")) {
            McpServer registered = new McpServer("calc", new McpServer.StreamableHttp(server.url(),
                    Map.of("X-Api-Key", "k")));
            try (McpSdkToolRunner runner = new McpSdkToolRunner(ref -> Optional.of(new McpToolAddress(registered,
                    ref.tool())), new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")),
                    Duration.ofSeconds(10))) {
                measure("mcp streamable-http loopback add", runner, new ToolRef(ToolProviderType.MCP, "calc", "add"),
                        Map.of("a", 2, "b", 3), 2000, 5000);
            }
        }
    }
}
