package dev.hexaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The model-bound run (issue 40, point 8): what one run of a workflow whose only work is one LLM node streaming
 * {@code PIECES} tokens costs the server in CPU. The packaged server runs in a process of its own and the fake
 * model ({@code bench/fake_model.py}) in another, so the server's CPU time (read from the OS for its process, all
 * its threads, GC and JIT included) holds neither the client's nor the model's. Runs go one at a time, blocking
 * and streaming in turn, after a warm-up; each round reports the CPU per run, and per {@code /health} request for
 * scale, how many connections the server opened to the model for how many calls, and a blocking run's CPU by
 * the kind of thread that spent it ({@link ThreadCpu}).
 *
 * <p>Usage, from the repository's root: {@code java -cp bench/target/benchmarks.jar dev.hexaflow.bench.ModelRunBench
 * app/target/hexaflow.jar [RUNS=500] [ROUNDS=3] [PIECES=100] [keep|close]}; {@code close} makes the fake model
 * close each stream (a new connection per call). {@code -Dbench.jvm="..."} passes options to the server's JVM (a
 * flight recording, a JDK's flags). Benchmarks report; nothing here fails a build.
 */
public final class ModelRunBench {

    static final String ADMIN = "bench-admin-token-0123456789abcdef";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private ModelRunBench() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "app/target/hexaflow.jar");
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int pieces = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        boolean close = args.length > 4 && args[4].equals("close");
        int modelPort = freePort();
        Process model = new ProcessBuilder("python3", "bench/fake_model.py", String.valueOf(modelPort),
                String.valueOf(pieces), "0", close ? "close" : "keep").redirectErrorStream(true).start();
        new BufferedReader(new InputStreamReader(model.getInputStream(), StandardCharsets.UTF_8)).readLine();
        Path data = Files.createTempDirectory("hexaflow-model-bench-");
        int port = freePort();
        String base = "http://127.0.0.1:" + port;
        Process server = startServer(jar, port, data, "http://127.0.0.1:" + modelPort + "/v1");
        try {
            awaitHealth(base, server);
            JsonNode app = JSON.readTree(send(HttpRequest.newBuilder(URI.create(base + "/admin/apps"))
                    .header("Authorization", "Bearer " + ADMIN).header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofFile(Path.of("bench/apps/slow-model.yml")))));
            String key = app.get("api_key").asText();
            Map<String, Object> results = new LinkedHashMap<>();
            results.put("server_java", javaOf(server));
            results.put("pieces", pieces);
            results.put("model", close ? "closes each stream" : "keeps connections");
            String answer = blocking(base, key);
            results.put("answer_chars", answer.length());
            log("warm-up: " + 2 * runs + " runs of each kind");
            for (int i = 0; i < 2 * runs; i++) {
                blocking(base, key);
                streaming(base, key);
                health(base);
            }
            List<Map<String, Object>> measured = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                log("round " + (round + 1) + " of " + rounds + ": " + runs + " runs of each kind");
                measured.add(round(base, key, runs, server, modelPort));
            }
            results.put("rounds", measured);
            System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
        } finally {
            server.destroy();
            server.waitFor();
            model.destroy();
            try (Stream<Path> files = Files.walk(data)) {
                files.sorted(Collections.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** One round: the server's CPU per blocking run, per streaming run and per /health, in microseconds. */
    private static Map<String, Object> round(String base, String key, int runs, Process server, int modelPort)
            throws Exception {
        Map<String, Object> figures = new LinkedHashMap<>();
        double idle = idleCpuShare(server);
        JsonNode before = stats(modelPort);
        Map<String, Long> threadsBefore = ThreadCpu.of(server.pid());
        long[] blocking = measure(server, runs, () -> blocking(base, key));
        Map<String, Double> byThread = ThreadCpu.perUnit(threadsBefore, ThreadCpu.of(server.pid()), blocking[0],
                runs, 6);
        long[] streaming = measure(server, runs, () -> streaming(base, key));
        JsonNode after = stats(modelPort);
        long[] health = measure(server, 10 * runs, () -> health(base));
        figures.put("idle_cpu_share", Math.round(idle * 10_000) / 10_000.0);
        figures.put("blocking_run_cpu_us", micros(blocking[0], runs));
        figures.put("streaming_run_cpu_us", micros(streaming[0], runs));
        figures.put("health_cpu_us", micros(health[0], 10 * runs));
        // Less what the server burns idle over the same wall time (timers, GC, the JIT catching up).
        figures.put("blocking_run_net_us", micros(blocking[0] - Math.round(idle * blocking[1]), runs));
        figures.put("streaming_run_net_us", micros(streaming[0] - Math.round(idle * streaming[1]), runs));
        figures.put("health_net_us", micros(health[0] - Math.round(idle * health[1]), 10 * runs));
        figures.put("blocking_run_wall_ms", micros(blocking[1], runs) / 1000);
        // Where a blocking run's CPU goes, by the kind of thread that spent it (a tenth of a millisecond apart).
        figures.put("blocking_run_cpu_us_by_thread", byThread);
        figures.put("model_connections", after.get("connections").asLong() - before.get("connections").asLong());
        figures.put("model_calls", after.get("requests").asLong() - before.get("requests").asLong());
        return figures;
    }

    /** A piece of work the bench repeats. */
    private interface Work {
        void run() throws Exception;
    }

    /** The server's CPU time and the wall time over {@code count} of the work, in nanoseconds. */
    private static long[] measure(Process server, int count, Work work) throws Exception {
        long cpu = cpuNanos(server);
        long wall = System.nanoTime();
        for (int i = 0; i < count; i++) {
            work.run();
        }
        return new long[] {cpuNanos(server) - cpu, System.nanoTime() - wall};
    }

    /** The share of a core the server uses while nobody asks it anything, over three seconds. */
    private static double idleCpuShare(Process server) throws InterruptedException {
        long cpu = cpuNanos(server);
        long wall = System.nanoTime();
        Thread.sleep(3_000);
        return (double) (cpuNanos(server) - cpu) / (System.nanoTime() - wall);
    }

    private static Process startServer(Path jar, int port, Path data, String model) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        String options = System.getProperty("bench.jvm", "").strip();
        if (!options.isEmpty()) {
            command.addAll(List.of(options.split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString(), "--port", String.valueOf(port), "--data-dir",
                data.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(data.resolve("server.log").toFile());
        builder.environment().put("HEXAFLOW_ADMIN_TOKEN", ADMIN);
        builder.environment().put("HEXAFLOW_LLM_BASE_URL", model);
        builder.environment().put("HEXAFLOW_LLM_MODELS", "*=fake");
        builder.environment().put("HEXAFLOW_HTTP_REQUESTS_PER_ADDRESS", "0");
        return builder.start();
    }

    private static String blocking(String base, String key) throws Exception {
        JsonNode answer = JSON.readTree(send(run(base, key, "blocking")));
        if (!answer.path("data").path("status").asText().equals("succeeded")) {
            throw new IllegalStateException("a blocking run failed: " + answer);
        }
        return answer.path("data").path("outputs").path("answer").asText();
    }

    /** A streamed run, read to its end; it must end with workflow_finished. */
    private static void streaming(String base, String key) throws Exception {
        HttpResponse<InputStream> response = HTTP.send(run(base, key, "streaming").timeout(Duration.ofSeconds(60))
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        String body;
        try (InputStream in = response.body()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (response.statusCode() != 200 || !body.contains("\"event\":\"workflow_finished\"")) {
            throw new IllegalStateException("a streamed run failed: " + response.statusCode() + " " + body);
        }
    }

    private static void health(String base) throws Exception {
        send(HttpRequest.newBuilder(URI.create(base + "/health")).GET());
    }

    private static HttpRequest.Builder run(String base, String key, String mode) throws IOException {
        String body = JSON.writeValueAsString(Map.of("inputs", Map.of("q", "Say a hundred words."),
                "response_mode", mode, "user", "bench"));
        return HttpRequest.newBuilder(URI.create(base + "/v1/workflows/run")).header("Authorization", "Bearer "
                + key).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static JsonNode stats(int modelPort) throws Exception {
        return JSON.readTree(send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + modelPort + "/stats"))
                .GET()));
    }

    private static String send(HttpRequest.Builder request) throws Exception {
        HttpRequest built = request.timeout(Duration.ofSeconds(60)).build();
        HttpResponse<String> response = HTTP.send(built, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(built.uri() + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.body();
    }

    /** The server process's CPU time so far, all its threads (user and system), as the OS counts it. */
    private static long cpuNanos(Process server) {
        return server.info().totalCpuDuration().orElseThrow().toNanos();
    }

    private static double micros(long nanos, int count) {
        return Math.round(nanos / 1e3 / count * 10) / 10.0;
    }

    private static String javaOf(Process server) {
        return server.info().command().orElse("?");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void awaitHealth(String base, Process server) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (true) {
            try {
                if (HTTP.send(HttpRequest.newBuilder(URI.create(base + "/health")).timeout(Duration.ofSeconds(1))
                        .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!server.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the server did not start; see its server.log");
            }
            Thread.sleep(20);
        }
    }

    private static void log(String message) {
        System.err.println("[model-bench] " + message);
    }
}
