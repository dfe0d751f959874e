package dev.hexaflow.adapters.nodes.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A server that takes connections and never answers holds up neither the calls to another server nor, beyond
 * the time limit, the calls queued behind the first one to it.
 */
class McpSilentServerTest {

    /**
     * The runner's time limit: long enough for a loaded machine's handshake with the answering server (3 s was not,
     * with a build beside it), short enough that four calls queued one behind another would show.
     */
    private static final Duration LIMIT = Duration.ofSeconds(5);

    @Test
    void callsQueuedOnASilentServerEachFailWithinTheLimitAndAnotherServerAnswersMeanwhile() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                LoopbackMcpServer calc = new LoopbackMcpServer("k")) {
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept());
                    } catch (java.io.IOException e) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            McpServer quiet = new McpServer("quiet", new McpServer.StreamableHttp(
                    URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/mcp"), Map.of()));
            McpServer answering = new McpServer("calc", new McpServer.StreamableHttp(calc.url(),
                    Map.of("X-Api-Key", "k")));
            try (McpSdkToolRunner runner = new McpSdkToolRunner(ref -> Optional.of(new McpToolAddress(
                    ref.provider().equals("quiet") ? quiet : answering, ref.tool())),
                    new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")), LIMIT)) {
                // Four callers at once, each on a thread of its own (the common pool has one thread on two cores,
                // which would run them one after another), timed from their common start.
                ExecutorService callers = Executors.newFixedThreadPool(4);
                CountDownLatch ready = new CountDownLatch(4);
                CountDownLatch go = new CountDownLatch(1);
                AtomicLong began = new AtomicLong();
                List<CompletableFuture<Double>> quietCalls = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    quietCalls.add(CompletableFuture.supplyAsync(() -> {
                        ready.countDown();
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        try {
                            runner.run(new ToolRef(ToolProviderType.MCP, "quiet", "anything"), Map.of(),
                                    StopSignal.NEVER);
                        } catch (ToolException expected) {
                            return (System.nanoTime() - began.get()) / 1e9;
                        }
                        throw new AssertionError("a silent server answered");
                    }, callers));
                }
                assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
                began.set(System.nanoTime());
                go.countDown();
                Thread.sleep(200);
                List<ToolMessage> sum = runner.run(new ToolRef(ToolProviderType.MCP, "calc", "add"),
                        Map.of("a", 1, "b", 2), StopSignal.NEVER);
                double calcAnsweredAfter = (System.nanoTime() - began.get()) / 1e9;

                assertThat(sum).contains(new ToolMessage.Variable("sum", 3.0));
                // Waiting for the silent server's lock would answer after LIMIT at least.
                assertThat(calcAnsweredAfter).as("the other server, while the silent one holds its lock")
                        .isLessThan(LIMIT.toMillis() / 1000.0);
                // Queued one behind the other, the fourth call would wait four limits.
                for (CompletableFuture<Double> call : quietCalls) {
                    assertThat(call.get(60, TimeUnit.SECONDS)).as("each queued call's wait")
                            .isLessThan(2 * LIMIT.toMillis() / 1000.0);
                }
                callers.shutdownNow();
            }
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }
}
