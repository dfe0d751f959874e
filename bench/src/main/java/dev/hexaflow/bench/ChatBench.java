package dev.hexaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The chat benchmark: the packaged server on a fresh data directory, with the chatflow of
 * {@code bench/apps/chat-memory.yml} (start, an LLM with memory, answer) whose model is a fast fake
 * OpenAI-compatible endpoint on loopback (in this process: each completion streams {@link #PIECES} pieces of
 * text, no pause, then the usage). Two figures, each with its p50 and p99:
 * <ol>
 * <li>time to the first {@code message} frame of a streamed turn, turns one at a time, each in a new
 * conversation (after a warm-up);</li>
 * <li>blocking turns a second, {@code THREADS} clients at once, each turn in a conversation that already keeps
 * {@link #HISTORY} turns (seeded first through the API): every conversation takes at most
 * {@link #TURNS_PER_CONVERSATION} measured turns, so the memory the model is given is 50 to 59 turns deep.</li>
 * </ol>
 * Benchmarks report; nothing here fails a build.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar dev.hexaflow.bench.ChatBench app/target/hexaflow.jar
 * [THREADS] [CONVERSATIONS]} (defaults 8 and 64), from the repository's root; prints the figures as JSON.
 */
public final class ChatBench {

    static final int PIECES = 10;
    static final int HISTORY = 50;
    static final int TURNS_PER_CONVERSATION = 10;
    static final String ADMIN = "bench-admin-token-0123456789abcdef";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private ChatBench() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "app/target/hexaflow.jar");
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int conversations = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        HttpServer model = fakeModel();
        Path data = Files.createTempDirectory("hexaflow-chat-bench-");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String base = "http://127.0.0.1:" + port;
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", jar.toString(), "--port", String.valueOf(port),
                "--data-dir", data.toString()).redirectErrorStream(true)
                .redirectOutput(data.resolve("server.log").toFile());
        builder.environment().put("HEXAFLOW_ADMIN_TOKEN", ADMIN);
        builder.environment().put("HEXAFLOW_LLM_BASE_URL", "http://127.0.0.1:" + model.getAddress().getPort()
                + "/v1");
        builder.environment().put("HEXAFLOW_LLM_MODELS", "*=fake");
        builder.environment().put("HEXAFLOW_HTTP_REQUESTS_PER_ADDRESS", "0");
        Process server = builder.start();
        try {
            awaitHealth(base, server);
            JsonNode app = JSON.readTree(send(HttpRequest.newBuilder(URI.create(base + "/admin/apps"))
                    .header("Authorization", "Bearer " + ADMIN).header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofFile(Path.of("bench/apps/chat-memory.yml")))));
            String key = app.get("api_key").asText();
            Map<String, Object> results = new LinkedHashMap<>();
            results.put("java", System.getProperty("java.vm.version"));
            results.put("cores", Runtime.getRuntime().availableProcessors());

            log("time to first message frame: warm-up");
            for (int i = 0; i < 100; i++) {
                firstMessage(base, key, "warm-up " + i);
            }
            log("time to first message frame: 500 streamed turns, one at a time, each in a new conversation");
            List<Double> first = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                first.add(firstMessage(base, key, "first frame " + i));
            }
            results.put("first_message_ms", percentiles(first));

            log("seeding " + conversations + " conversations with " + HISTORY + " turns each");
            List<String> ids = seed(base, key, threads, conversations);
            log("blocking turns: " + threads + " clients, " + conversations * TURNS_PER_CONVERSATION + " turns");
            results.put("blocking", blockingTurns(base, key, threads, ids));
            System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(results));
        } finally {
            server.destroy();
            server.waitFor();
            model.stop(0);
            try (Stream<Path> files = Files.walk(data)) {
                files.sorted(Collections.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** Milliseconds from the request to the first {@code message} frame; the stream is read to its end. */
    private static double firstMessage(String base, String key, String query) throws Exception {
        HttpRequest request = turn(base, key, query, null, "streaming", "bench-first");
        long began = System.nanoTime();
        HttpResponse<Stream<String>> response = HTTP.send(request, HttpResponse.BodyHandlers.ofLines());
        double first = -1;
        try (Stream<String> lines = response.body()) {
            for (String line : (Iterable<String>) lines::iterator) {
                if (first < 0 && line.startsWith("data: ") && line.contains("\"event\":\"message\"")) {
                    first = (System.nanoTime() - began) / 1e6;
                }
            }
        }
        if (first < 0) {
            throw new IllegalStateException("a streamed turn sent no message frame (status "
                    + response.statusCode() + ")");
        }
        return first;
    }

    private static List<String> seed(String base, String key, int threads, int conversations) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<String>> seeded = new ArrayList<>();
            for (int c = 0; c < conversations; c++) {
                String user = "bench-" + c;
                seeded.add(pool.submit(() -> {
                    String id = null;
                    for (int t = 0; t < HISTORY; t++) {
                        id = blocking(base, key, "turn " + t + " of the history", id, user).get("conversation_id")
                                .asText();
                    }
                    return id;
                }));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> id : seeded) {
                ids.add(id.get());
            }
            return ids;
        } finally {
            pool.shutdown();
        }
    }

    /** Each client takes the conversations in turn, so that no conversation has two turns at once. */
    private static Map<String, Object> blockingTurns(String base, String key, int threads, List<String> ids)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger();
        int total = ids.size() * TURNS_PER_CONVERSATION;
        long began = System.nanoTime();
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                clients.add(pool.submit(() -> {
                    for (int n = next.getAndIncrement(); n < total; n = next.getAndIncrement()) {
                        // Turn n goes to conversation n % size: a conversation's turns are size turns apart.
                        int conversation = n % ids.size();
                        long start = System.nanoTime();
                        blocking(base, key, "measured turn " + n, ids.get(conversation), "bench-" + conversation);
                        latencies.add((System.nanoTime() - start) / 1e6);
                    }
                    return null;
                }));
            }
            for (Future<?> client : clients) {
                client.get();
            }
        } finally {
            pool.shutdown();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("turns", total);
        figures.put("clients", threads);
        figures.put("history_turns", HISTORY + "-" + (HISTORY + TURNS_PER_CONVERSATION - 1));
        figures.put("turns_per_second", Math.round(total / seconds * 10) / 10.0);
        figures.put("latency_ms", percentiles(latencies));
        return figures;
    }

    private static JsonNode blocking(String base, String key, String query, String conversation, String user)
            throws Exception {
        String body = send(turn(base, key, query, conversation, "blocking", user));
        JsonNode answer = JSON.readTree(body);
        if (!answer.has("conversation_id")) {
            throw new IllegalStateException("a blocking turn failed: " + body);
        }
        return answer;
    }

    private static HttpRequest turn(String base, String key, String query, String conversation, String mode,
            String user) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", query);
        body.put("inputs", Map.of());
        body.put("user", user);
        body.put("response_mode", mode);
        body.put("auto_generate_name", false);
        if (conversation != null) {
            body.put("conversation_id", conversation);
        }
        return HttpRequest.newBuilder(URI.create(base + "/v1/chat-messages")).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
    }

    private static String send(HttpRequest.Builder request) throws Exception {
        return send(request.timeout(Duration.ofSeconds(60)).build());
    }

    private static String send(HttpRequest request) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(request.uri() + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.body();
    }

    private static Map<String, Object> percentiles(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("count", sorted.size());
        figures.put("p50", round(sorted.get((int) Math.floor(0.50 * (sorted.size() - 1)))));
        figures.put("p99", round(sorted.get((int) Math.floor(0.99 * (sorted.size() - 1)))));
        return figures;
    }

    private static double round(double millis) {
        return Math.round(millis * 100) / 100.0;
    }

    private static void awaitHealth(String base, Process server) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
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

    /** Streams {@link #PIECES} pieces at once, then the usage and [DONE], as an OpenAI-compatible endpoint. */
    private static HttpServer fakeModel() throws IOException {
        // Without it the JDK's server leaves Nagle's algorithm on, and each completion waits out a delayed ACK
        // (about 40 ms): the figures would measure the fake, not the server.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/chat/completions", ChatBench::complete);
        server.start();
        return server;
    }

    private static void complete(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < PIECES; i++) {
                body.append("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word").append(i)
                        .append(" \"},\"finish_reason\":null}]}\n\n");
            }
            body.append("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n");
            body.append("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":").append(PIECES)
                    .append(",\"total_tokens\":").append(5 + PIECES).append("}}\n\ndata: [DONE]\n\n");
            out.write(body.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void log(String message) {
        System.err.println("[chat-bench] " + message);
    }
}
