package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.http.server.ClientLimits;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.ServiceSettings;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that send the headers of a large POST and then trickle its body, with no credentials, from one
 * address (127.0.0.2; the real clients call from 127.0.0.1): the server holds them to their address's share and
 * to the least body rate, keeps answering real runs, and lets the request threads go soon after.
 */
class SlowClientHttpTest {

    /** Small limits, so that the attack and its end take seconds. */
    static final ClientLimits LIMITS = new ClientLimits(20, 1024, Duration.ofMillis(500), Duration.ofSeconds(3));
    static final String ATTACKER = "127.0.0.2";

    @TempDir
    static Path dataDir;
    static TestServer server;
    static ServiceApi echo;
    static String siteCode;

    @BeforeAll
    static void start() {
        server = TestServer.start(TestServer.config(dataDir).withService(ServiceSettings.DEFAULTS.withClients(
                LIMITS)));
        JsonNode imported = server.importApp("echo.yml");
        echo = server.api(imported.get("api_key").asText());
        siteCode = imported.get("site_code").asText();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void slowBodiesFromOneAddressTakeOnlyItsShareRealRunsAreAnsweredAndThreadsComeBack() throws Exception {
        assertThat(echo.postJson("/v1/workflows/run", run(Map.of("query", "warm"), "blocking", "ada"))
                .statusCode()).isEqualTo(200);
        int baseline = requestThreads();
        List<String> paths = List.of("/v1/workflows/run", "/admin/apps", "/apps/" + siteCode + "/token",
                "/v1/files/upload");
        List<Integer> samples = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> answeredMillis = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Attack attack = new Attack(server.hexaflow.port(), 400, paths)) {
            Future<?> attacking = pool.submit(attack);
            AtomicBoolean sampling = new AtomicBoolean(true);
            Future<?> sampler = pool.submit(() -> {
                while (sampling.get()) {
                    samples.add(requestThreads());
                    sleep(50);
                }
            });
            sleep(1500);
            for (int i = 0; i < 4; i++) {
                long started = System.nanoTime();
                var response = echo.postJson("/v1/workflows/run", run(Map.of("query", "real " + i), "blocking",
                        "ada"));
                answeredMillis.add((System.nanoTime() - started) / 1_000_000);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                assertThat(response.body()).contains("You said: real " + i);
            }
            sleep(1500);
            assertThat(attack.opened.get()).as("connections the attacker opened").isGreaterThanOrEqualTo(400);
            sampling.set(false);
            sampler.get(5, TimeUnit.SECONDS);
            attack.stop();
            attacking.get(10, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }

        assertThat(answeredMillis).as("real runs answered during the attack, in ms").allMatch(ms -> ms < 3000);
        List<Integer> sorted = samples.stream().sorted().toList();
        int median = sorted.get(sorted.size() / 2);
        int peak = sorted.get(sorted.size() - 1);
        // Threads held: the address's share and the real runs; the rest is the churn of answering 429 to a
        // few thousand connections a second, which lasts a moment each.
        assertThat(median).as("request threads during the attack, median (baseline %d, peak %d)", baseline, peak)
                .isLessThanOrEqualTo(baseline + LIMITS.requestsPerAddress() + 60);
        assertThat(peak).as("request threads at the height of the attack (baseline %d)", baseline)
                .isLessThan(baseline + 250);
        long ended = System.nanoTime();
        int threads = requestThreads();
        while (threads > baseline + 5 && System.nanoTime() - ended < 5_000_000_000L) {
            sleep(100);
            threads = requestThreads();
        }
        assertThat(threads).as("request threads 5 s after the attack (baseline %d)", baseline)
                .isLessThanOrEqualTo(baseline + 5);
    }

    @Test
    void aRequestOverItsAddresssShareIsRefused429AtOnceAndOtherAddressesAreServed() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < LIMITS.requestsPerAddress(); i++) {
                // 64 KB sent at once: enough credit at the least rate to be held for a minute.
                Socket socket = slowPost(server.hexaflow.port(), "/v1/workflows/run", "Bearer nokey");
                held.add(socket);
                socket.getOutputStream().write(" ".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII));
            }
            sleep(200);
            try (Socket over = slowPost(server.hexaflow.port(), "/v1/workflows/run", null)) {
                over.setSoTimeout(2000);
                String answer = new String(over.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

                assertThat(answer).startsWith("HTTP/1.1 429");
                assertThat(answer).contains("\"code\":\"too_many_requests\"", "\"status\":429",
                        "at most " + LIMITS.requestsPerAddress() + " at once");
            }
            assertThat(echo.postJson("/v1/workflows/run", run(Map.of("query", "hi"), "blocking", "ada"))
                    .statusCode()).isEqualTo(200);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aBodyThatStopsComingIsCutSoonAfterTheGraceThoughItsKeyIsGood() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.hexaflow.port())) {
            socket.getOutputStream().write(("POST /v1/workflows/run HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + apiKey() + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100000\r\n\r\n{\"inputs\":").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.setSoTimeout(10_000);
            long started = System.nanoTime();

            String answer = readUntilClosed(socket.getInputStream());

            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(millis).as("ms until the server gave up on the body")
                    .isLessThan(LIMITS.bodyGrace().toMillis() + 1500);
            assertThat(answer).as(answer).contains("408", "request_timeout");
        }
    }

    private static String apiKey() {
        return TestServer.json(server.admin("POST", "/admin/apps/" + TestServer.json(server.admin("GET",
                "/admin/apps", null, null)).get("data").get(0).get("app_id").asText() + "/keys", null, null))
                .get("api_key").asText();
    }

    private static String readUntilClosed(InputStream in) throws IOException {
        StringBuilder text = new StringBuilder();
        byte[] buffer = new byte[4096];
        try {
            for (int read; (read = in.read(buffer)) > 0; ) {
                text.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
            }
        } catch (SocketTimeoutException e) {
            text.append("<still open>");
        } catch (IOException e) {
            text.append("<reset>");
        }
        return text.toString();
    }

    /** A connection from the attacker's address that has sent the headers of a 10 MB POST and one byte. */
    static Socket slowPost(int port, String path, String authorization) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(ATTACKER, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        String head = "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + (authorization == null ? "" : "Authorization: " + authorization + "\r\n")
                + "Content-Length: 10000000\r\n\r\n{";
        socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** The server's request threads (Jetty's pool, named hexaflow-http). */
    static int requestThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("hexaflow-http")).count();
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Keeps {@code connections} slow POSTs open from the attacker's address, a byte every 200 ms on each, and
     * opens a new one for each the server closes, until stopped; then closes them all.
     */
    static final class Attack implements Runnable, AutoCloseable {
        final int port;
        final List<String> paths;
        final Socket[] sockets;
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicInteger opened = new AtomicInteger();

        Attack(int port, int connections, List<String> paths) {
            this.port = port;
            this.paths = paths;
            this.sockets = new Socket[connections];
        }

        @Override
        public void run() {
            while (running.get()) {
                for (int i = 0; i < sockets.length && running.get(); i++) {
                    try {
                        if (sockets[i] == null) {
                            sockets[i] = slowPost(port, paths.get(i % paths.size()), null);
                            opened.incrementAndGet();
                        } else {
                            sockets[i].getOutputStream().write(' ');
                        }
                    } catch (IOException e) {
                        closeQuietly(sockets[i]);
                        sockets[i] = null;
                    }
                }
                sleep(200);
            }
            for (int i = 0; i < sockets.length; i++) {
                closeQuietly(sockets[i]);
                sockets[i] = null;
            }
        }

        void stop() {
            running.set(false);
        }

        @Override
        public void close() {
            stop();
        }

        private static void closeQuietly(Socket socket) {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // Gone already.
                }
            }
        }
    }
}
