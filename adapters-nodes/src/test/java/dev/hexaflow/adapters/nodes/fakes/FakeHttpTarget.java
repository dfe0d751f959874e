package dev.hexaflow.adapters.nodes.fakes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on loopback for http-request tests. {@code /echo} answers JSON, {@code /status/N} answers
 * status N, {@code /slow} answers after three seconds and {@code /wait/MS} after MS milliseconds,
 * {@code /image} answers PNG bytes, {@code /redirect/N?to=URL} answers status N with Location URL (as given,
 * percent-decoded). It keeps each request.
 */
public final class FakeHttpTarget implements AutoCloseable {

    /** A request as the target saw it; header names in lower case. */
    public record Seen(String method, String uri, Map<String, String> headers, String body) {
    }

    private final HttpServer server;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final Map<String, Object[]> files = new java.util.concurrent.ConcurrentHashMap<>();

    /** Serves {@code bytes} at {@code /files/<name>} with the content type. */
    public String serve(String name, String contentType, byte[] bytes) {
        files.put("/files/" + name, new Object[] {contentType, bytes});
        return url("/files/" + name);
    }

    /** The name its threads start with, so that they are told from the server's in a thread dump. */
    private static final String THREAD_PREFIX = "fake-http-target-";

    private final ExecutorService executor = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, THREAD_PREFIX + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });
    private static final AtomicInteger THREADS = new AtomicInteger();

    public FakeHttpTarget() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Seen> seen() {
        return seen;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers, body));
            String path = exchange.getRequestURI().getPath();
            if (files.containsKey(path)) {
                Object[] file = files.get(path);
                byte[] bytes = (byte[]) file[1];
                exchange.getResponseHeaders().set("Content-Type", (String) file[0]);
                exchange.sendResponseHeaders(200, bytes.length);
                exchange.getResponseBody().write(bytes);
            } else if (path.startsWith("/status/")) {
                reply(exchange, Integer.parseInt(path.substring(8)), "text/plain", "status " + path.substring(8));
            } else if (path.equals("/slow") || path.startsWith("/wait/")) {
                try {
                    Thread.sleep(path.equals("/slow") ? 3000 : Long.parseLong(path.substring(6)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                reply(exchange, 200, "text/plain", "late");
            } else if (path.startsWith("/redirect/")) {
                String to = exchange.getRequestURI().getQuery().substring("to=".length());
                exchange.getResponseHeaders().set("Location", to);
                exchange.sendResponseHeaders(Integer.parseInt(path.substring("/redirect/".length())), -1);
            } else if (path.equals("/image")) {
                byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0};
                exchange.getResponseHeaders().set("Content-Type", "image/png");
                exchange.sendResponseHeaders(200, png.length);
                exchange.getResponseBody().write(png);
            } else {
                reply(exchange, 200, "application/json", "{\"echo\":\"" + exchange.getRequestMethod() + "\"}");
            }
        } catch (IOException e) {
            // The client went away (a stopped run or a timeout).
        }
    }

    private static void reply(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("X-Target", "fake");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
