package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.RunHandle;
import dev.hexaflow.workflow.engine.RunListener;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Model endpoints and http-request targets on loopback that never answer, stall mid-answer, answer garbage or
 * hang up: each run ends within its limits, failed, with an error that says what happened. No run is left
 * waiting: every one is awaited with a deadline that fails the test if it passes.
 */
class UpstreamFaultsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);

    @Test
    void aModelEndpointThatNeverAnswersFailsTheRunAtItsMaximumTime() throws Exception {
        try (Upstream silent = Upstream.accepting(socket -> { })) {
            WorkflowRun run = runChat(silent.uri("/v1"), 2);

            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).isEqualTo("Max execution time 2s reached.");
        }
    }

    @Test
    void aModelStreamThatStallsAfterItsHeadersFailsTheRunAtItsMaximumTime() throws Exception {
        try (FakeModelServer model = new FakeModelServer()) {
            model.answer(FakeModelServer.Script.text("never arrives", 1, 1).pausing(60_000));

            WorkflowRun run = runChat(model.baseUrl(), 2);

            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).isEqualTo("Max execution time 2s reached.");
        }
    }

    @Test
    void aModelEndpointThatAnswersSomethingElseFailsTheNodeSayingSo() throws Exception {
        try (FakeHttpTarget target = new FakeHttpTarget()) {
            WorkflowRun run = runChat(URI.create(target.url("/v1")), 30);

            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).isEqualTo("[openai] Error: the model endpoint answered something other than a "
                    + "chat completion: {\"echo\":\"POST\"}");
        }
    }

    @Test
    void aModelEndpointThatHangsUpMidAnswerFailsTheNodeSayingSo() throws Exception {
        try (Upstream rude = Upstream.accepting(socket -> write(socket, "HTTP/1.1 200 OK\r\nContent-Type: "
                + "text/event-stream\r\nContent-Length: 1000\r\n\r\ndata: {\"choices\":[{\"delta\":"))) {
            WorkflowRun run = runChat(rude.uri("/v1"), 30);

            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).isNotBlank();
        }
    }

    @Test
    void aTargetThatNeverAnswersFailsTheNodeAtItsReadTimeout() throws Exception {
        try (Upstream silent = Upstream.accepting(socket -> { })) {
            WorkflowRun run = runHttp(silent.uri("/x").toString(), 1, 30);

            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).contains("timed out after 1s");
        }
    }

    @Test
    void aTargetSlowerThanTheRunsMaximumTimeFailsTheRunAtThatTime() throws Exception {
        try (Upstream silent = Upstream.accepting(socket -> { })) {
            WorkflowRun run = runHttp(silent.uri("/x").toString(), 60, 2);

            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).isEqualTo("Max execution time 2s reached.");
        }
    }

    @Test
    void aTargetThatHangsUpMidAnswerFailsTheNodeSayingSo() throws Exception {
        try (Upstream rude = Upstream.accepting(socket -> write(socket,
                "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf"))) {
            WorkflowRun run = runHttp(rude.uri("/x").toString(), 5, 30);

            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error()).startsWith("Request to " + rude.uri("/x") + " failed: ");
        }
    }

    private static WorkflowRun runChat(URI modelBase, int maxSeconds) throws Exception {
        WorkflowEngine engine = Engines.standard(EngineConfiguration.fromEnvironment(Map.of(
                "HEXAFLOW_MAX_RUN_SECONDS", String.valueOf(maxSeconds))).withLlm(modelBase, "sk-test"));
        Workflow workflow;
        try (InputStream in = UpstreamFaultsTest.class.getResourceAsStream("/apps/chat.yml")) {
            workflow = new YamlWorkflowDslReader().read(in.readAllBytes());
        }
        return runToEnd(engine, workflow, Map.of("q", "hello"));
    }

    private static WorkflowRun runHttp(String url, int readSeconds, int maxSeconds) throws Exception {
        WorkflowEngine engine = Engines.standard(EngineConfiguration.fromEnvironment(Map.of(
                "HEXAFLOW_MAX_RUN_SECONDS", String.valueOf(maxSeconds), "HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")));
        Workflow workflow = Dsl.read(Dsl.httpGet(url, readSeconds));
        return runToEnd(engine, workflow, Map.of());
    }

    private static WorkflowRun runToEnd(WorkflowEngine engine, Workflow workflow, Map<String, Object> inputs)
            throws Exception {
        RunHandle handle = engine.start(engine.prepare(workflow), RunRequest.of(workflow, "u", inputs),
                RunListener.NONE);
        return handle.await(DEADLINE);
    }

    private static void write(Socket socket, String text) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            socket.close();
        } catch (IOException e) {
            // The client left first.
        }
    }

    /** A raw TCP upstream on loopback that accepts each connection and does with it what it is told. */
    private static final class Upstream implements AutoCloseable {
        private final ServerSocket server;
        private final List<Socket> held = new CopyOnWriteArrayList<>();

        private Upstream(Consumer<Socket> onAccept) throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        held.add(socket);
                        onAccept.accept(socket);
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "upstream-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        static Upstream accepting(Consumer<Socket> onAccept) throws IOException {
            return new Upstream(onAccept);
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : held) {
                socket.close();
            }
        }
    }
}
