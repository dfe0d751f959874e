package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.ClientLimits;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.ServiceSettings;
import dev.hexaflow.engine.Dsl;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two hundred streaming runs at once against a slow upstream: half the clients leave after the first event,
 * one in ten stops its run. Every run ends in a terminal status and is kept; afterwards the server's threads,
 * open connections and heap come back to what they were before the burst.
 */
class StreamingLoadTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int STREAMS = 200;
    private static final int SLACK_THREADS = 5;

    @TempDir
    Path dataDir;

    @Test
    void twoHundredStreamsWithLeaversAndStopsAllEndAreKeptAndLeaveNothingBehind() throws Exception {
        // The test's own HTTP client keeps its connections for reuse; the server closes them once idle for 3 s
        // (30 s by default), so that what is left open afterwards is what the server failed to close. A stream
        // pings every second, so that none is idle that long while its run waits on the upstream.
        ClientLimits limits = new ClientLimits(ClientLimits.DEFAULTS.requestsPerAddress(),
                ClientLimits.DEFAULTS.minBodyBytesPerSecond(), ClientLimits.DEFAULTS.bodyGrace(),
                Duration.ofSeconds(3));
        try (FakeHttpTarget upstream = new FakeHttpTarget(); TestServer server = TestServer.start(
                TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                        Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")))
                .withService(ServiceSettings.DEFAULTS.withShutdownGrace(Duration.ofSeconds(1)).withClients(limits)
                        .withPingInterval(Duration.ofSeconds(1))))) {
            Footprint.quietBefore();
            String key = TestServer.json(server.admin("POST", "/admin/apps", "application/yaml",
                    Dsl.httpGet(upstream.url("/wait/1500"), 30))).get("api_key").asText();
            ServiceApi api = server.api(key);
            URI base = URI.create(server.hexaflow.baseUrl());
            for (int i = 0; i < 3; i++) {
                assertThat(ServiceApi.json(api.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking",
                        "warm"))).get("data").get("status").asText()).isEqualTo("succeeded");
            }
            Footprint before = Footprint.now(server.hexaflow::openConnections);

            Map<String, String> expected = new ConcurrentHashMap<>();
            List<Throwable> failures = new ArrayList<>();
            CountDownLatch done = new CountDownLatch(STREAMS);
            for (int i = 0; i < STREAMS; i++) {
                int client = i;
                Thread thread = new Thread(() -> {
                    try {
                        stream(base, key, client, expected);
                    } catch (Throwable e) {
                        synchronized (failures) {
                            failures.add(e);
                        }
                    } finally {
                        done.countDown();
                    }
                });
                thread.start();
            }
            done.await();
            assertThat(failures).as("client failures").isEmpty();
            assertThat(expected).hasSize(STREAMS);

            for (Map.Entry<String, String> run : expected.entrySet()) {
                assertThat(awaitTerminal(api, run.getKey())).as("run " + run.getKey()).isEqualTo(run.getValue());
            }
            JsonNode logs = ServiceApi.json(api.get("/v1/workflows/logs?limit=1"));
            assertThat(logs.get("total").asInt()).isEqualTo(STREAMS + 3);

            Footprint after = Footprint.backTo(before, server.hexaflow::openConnections);
            System.out.printf("load: before %s, after %s%n", before, after);
            assertThat(after.connections()).as("open connections").isLessThanOrEqualTo(before.connections());
            // The burst itself took 200 request threads (on JDK 17) and as many engine threads.
            assertThat(after.threads()).as("threads").isLessThanOrEqualTo(before.threads() + SLACK_THREADS);
            assertThat(after.heapBytes()).as("heap after GC").isLessThan(before.heapBytes() + 32L * 1024 * 1024);
        }
    }

    /**
     * One client on its own HTTP/1.0 connection (so the stream ends by closing, and nothing stays pooled): even
     * clients leave after the first event, one in ten stops its task, the rest read to workflow_finished.
     */
    private static void stream(URI base, String key, int client, Map<String, String> expected) throws Exception {
        String body = "{\"inputs\":{},\"response_mode\":\"streaming\",\"user\":\"load-" + client + "\"}";
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/workflows/run HTTP/1.0\r\nHost: " + base.getHost() + "\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8)
                    .length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(in.readLine()).startsWith("HTTP/1.").contains(" 200 ");
            JsonNode first = nextEvent(in);
            String runId = first.get("workflow_run_id").asText();
            if (client % 2 == 0) {
                expected.put(runId, "succeeded");
                return;
            }
            if (client % 10 == 1) {
                expected.put(runId, "stopped");
                ServiceApi api = new ServiceApi(base.toString(), key);
                assertThat(api.postJson("/v1/workflows/tasks/" + first.get("task_id").asText() + "/stop",
                        Map.of("user", "load-" + client)).statusCode()).isEqualTo(200);
            } else {
                expected.put(runId, "succeeded");
            }
            JsonNode event = first;
            while (!event.get("event").asText().equals("workflow_finished")) {
                event = nextEvent(in);
            }
            assertThat(event.get("data").get("status").asText()).isEqualTo(expected.get(runId));
        }
    }

    private static JsonNode nextEvent(BufferedReader in) throws IOException {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("data: ")) {
                return JSON.readTree(line.substring(6));
            }
        }
        throw new AssertionError("the stream ended before workflow_finished");
    }

    private static String awaitTerminal(ServiceApi api, String runId) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String status = "";
        while (System.nanoTime() < deadline) {
            status = ServiceApi.json(api.get("/v1/workflows/run/" + runId)).get("status").asText();
            if (!status.equals("running")) {
                return status;
            }
            Thread.sleep(100);
        }
        return status;
    }

    /**
     * The server's own threads (request threads, engine threads, timers: all named hexaflow-), its open
     * connections and the heap after a GC.
     */
    record Footprint(int threads, int connections, long heapBytes) {

        /** Waits up to 15 s for earlier tests' servers in this JVM to have let their threads go. */
        static void quietBefore() throws InterruptedException {
            for (int i = 0; i < 30 && Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> thread.getName().startsWith("hexaflow-node")).count() > 0; i++) {
                Thread.sleep(500);
            }
        }

        static Footprint now(IntSupplier connections) {
            return measure(connections);
        }

        /** Measures until idle pools have let go down to {@code baseline}'s level, for at most 40 s. */
        static Footprint backTo(Footprint baseline, IntSupplier connections) throws InterruptedException {
            Footprint now = measure(connections);
            for (int i = 0; i < 40 && (now.threads() > baseline.threads() + SLACK_THREADS
                    || now.connections() > baseline.connections()); i++) {
                Thread.sleep(1000);
                now = measure(connections);
            }
            return now;
        }

        private static Footprint measure(IntSupplier connections) {
            System.gc();
            long threads = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> thread.getName().startsWith("hexaflow-"))
                    .count();
            return new Footprint((int) threads, connections.getAsInt(),
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
    }
}
