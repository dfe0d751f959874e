package dev.hexaflow.adapters.nodes.http;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.hexaflow.adapters.nodes.fakes.FakeHttpTarget;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.HttpRequester.HttpAnswer;
import dev.hexaflow.workflow.port.out.HttpRequester.HttpCall;
import dev.hexaflow.workflow.port.out.HttpRequester.HttpException;
import dev.hexaflow.domain.net.OutboundPolicy;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The http-request node's requester against real servers on loopback: its timeouts, failures and stops, and the
 * outbound policy, which refuses the server's own machine (in any spelling, or by a redirect) before anything is
 * sent unless the operator allows it.
 */
class JdkHttpRequesterTest {

    static final FakeHttpTarget TARGET = new FakeHttpTarget();
    /** A second loopback address, which a requester that allows 127.0.0.1 still refuses. */
    static final HttpServer OTHER = otherLoopback();
    static final AtomicInteger OTHER_HITS = new AtomicInteger();

    static final JdkHttpRequester DEFAULTS = new JdkHttpRequester();
    /** As HEXAFLOW_OUTBOUND_ALLOW=127.0.0.1 sets it, the way an operator opens a target on loopback. */
    static final JdkHttpRequester ALLOWS_127_0_0_1 = new JdkHttpRequester(
            new OutboundExchange(() -> OutboundPolicy.of("127.0.0.1", "")));

    @AfterAll
    static void stop() {
        TARGET.close();
        OTHER.stop(0);
    }

    private static HttpServer otherLoopback() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.2", 0), 0);
            server.createContext("/", exchange -> {
                OTHER_HITS.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpCall get(String url, int readSeconds) {
        return new HttpCall("GET", url, List.of(), null, Duration.ofSeconds(2), Duration.ofSeconds(readSeconds),
                true, 10L * 1024 * 1024);
    }

    private static int port() {
        return Integer.parseInt(TARGET.url("").replaceAll(".*:", ""));
    }

    private static String redirect(int status, String to) {
        return TARGET.url("/redirect/" + status + "?to=" + URLEncoder.encode(to, StandardCharsets.UTF_8));
    }

    @Test
    void aSlowTargetFailsAtItsReadTimeoutWithAClearMessage() {
        HttpCall call = new HttpCall("GET", TARGET.url("/slow"), List.of(), null, Duration.ofSeconds(5),
                Duration.ofSeconds(1), true, 1024);

        assertThatThrownBy(() -> ALLOWS_127_0_0_1.send(call, StopSignal.NEVER)).isInstanceOf(HttpException.class)
                .hasMessageContaining("timed out after 1s");
    }

    /**
     * A target that answers its headers at once, then its body a byte every 200 ms for 20 s: the JDK client's
     * own timeout covers only the headers.
     */
    private static String trickling() throws IOException {
        java.net.ServerSocket socket = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress());
        Thread server = new Thread(() -> {
            try (socket; java.net.Socket client = socket.accept()) {
                client.getInputStream().read(new byte[8192]);
                java.io.OutputStream out = client.getOutputStream();
                out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                for (int i = 0; i < 100; i++) {
                    Thread.sleep(200);
                    out.write('x');
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // The client went away, as it should.
            }
        }, "trickling-target");
        server.setDaemon(true);
        server.start();
        return "http://127.0.0.1:" + socket.getLocalPort() + "/trickle";
    }

    @Test
    void aBodyThatTricklesInFailsAtTheReadTimeoutNotWhenItEnds() throws Exception {
        HttpCall call = new HttpCall("GET", trickling(), List.of(), null, Duration.ofSeconds(5),
                Duration.ofSeconds(1), true, 1024);
        long asked = System.nanoTime();

        assertThatThrownBy(() -> ALLOWS_127_0_0_1.send(call, StopSignal.NEVER)).isInstanceOf(HttpException.class)
                .hasMessageContaining("did not finish within 1 s");
        assertThat((System.nanoTime() - asked) / 1e9).isLessThan(3.0);
    }

    @Test
    void aStopEndsTheReadOfATricklingBodyWithinASecond() throws Exception {
        StopSwitch stop = new StopSwitch();
        String url = trickling();
        CompletableFuture<HttpAnswer> call = CompletableFuture.supplyAsync(
                () -> ALLOWS_127_0_0_1.send(get(url, 30), stop));
        Thread.sleep(600);

        long asked = System.nanoTime();
        stop.pull();

        assertThatThrownBy(() -> call.get(2, TimeUnit.SECONDS)).hasCauseInstanceOf(HttpException.class);
        assertThat((System.nanoTime() - asked) / 1e9).isLessThan(1.0);
    }

    @Test
    void anUnreachableTargetFailsWithAClearMessage() {
        assertThatThrownBy(() -> ALLOWS_127_0_0_1.send(get("http://127.0.0.1:9/nothing", 5), StopSignal.NEVER))
                .isInstanceOf(HttpException.class).hasMessageStartingWith("Request to http://127.0.0.1:9/nothing failed");
    }

    @Test
    void aStopCancelsTheRequestInFlightWithinASecond() throws Exception {
        StopSwitch stop = new StopSwitch();
        CompletableFuture<HttpAnswer> call = CompletableFuture.supplyAsync(
                () -> ALLOWS_127_0_0_1.send(get(TARGET.url("/slow"), 10), stop));
        Thread.sleep(300);

        long asked = System.nanoTime();
        stop.pull();

        assertThatThrownBy(() -> call.get(2, TimeUnit.SECONDS)).hasCauseInstanceOf(HttpException.class);
        assertThat((System.nanoTime() - asked) / 1e9).isLessThan(1.0);
    }

    @Test
    void everySpellingOfTheServersOwnMachineIsRefusedBeforeARequestIsSent() {
        int port = port();
        Map<String, String> refused = Map.of(
                "http://127.0.0.1:" + port + "/echo", "The address 127.0.0.1 of host 127.0.0.1 is not allowed for "
                        + "outbound requests (loopback); allow it with HEXAFLOW_OUTBOUND_ALLOW",
                "http://0.0.0.0:" + port + "/echo", "(unspecified)",
                "http://2130706433:" + port + "/echo", "The address 127.0.0.1 of host 2130706433",
                "http://[::1]:" + port + "/echo", "(loopback)",
                "http://[::ffff:127.0.0.1]:" + port + "/echo", "The address 127.0.0.1 of host [::ffff:127.0.0.1]",
                "http://localhost:" + port + "/echo", "of host localhost is not allowed for outbound requests "
                        + "(loopback)",
                "http://169.254.169.254/latest/meta-data/", "(link-local)");
        int before = TARGET.seen().size();

        refused.forEach((url, message) -> assertThatThrownBy(() -> DEFAULTS.send(get(url, 5), StopSignal.NEVER))
                .as(url).isInstanceOf(HttpException.class).hasMessageContaining(message));

        assertThat(TARGET.seen()).hasSize(before);
    }

    @Test
    void everyIpv6FormThatCarriesALoopbackPrivateOrMetadataAddressIsRefusedByThatAddressBeforeARequestIsSent() {
        int port = port();
        Map<String, String> refused = Map.of(
                "http://[64:ff9b::7f00:1]:" + port + "/echo", "The address 127.0.0.1 (carried by 64:ff9b::7f00:1 as "
                        + "NAT64) of host [64:ff9b::7f00:1] is not allowed for outbound requests (loopback); allow it "
                        + "with HEXAFLOW_OUTBOUND_ALLOW",
                "http://[::ffff:127.0.0.1]:" + port + "/echo", "The address 127.0.0.1 of host [::ffff:127.0.0.1] is "
                        + "not allowed for outbound requests (loopback)",
                "http://[2002:7f00:1::]:" + port + "/echo", "The address 127.0.0.1 (carried by 2002:7f00:1:: as "
                        + "6to4) of host [2002:7f00:1::] is not allowed for outbound requests (loopback)",
                "http://[::127.0.0.1]:" + port + "/echo", "The address 127.0.0.1 (carried by ::7f00:1 as "
                        + "IPv4-compatible) of host [::127.0.0.1] is not allowed for outbound requests (loopback)",
                "http://[::ffff:0:7f00:1]:" + port + "/echo", "(carried by ::ffff:0:7f00:1 as IPv4-translated)",
                "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:" + port + "/echo", "The address 127.0.0.1 (carried "
                        + "by 2001:0:4136:e378:8000:63bf:80ff:fffe as Teredo)",
                "http://[2001:db8::5efe:a00:1]/", "The address 10.0.0.1 (carried by 2001:db8::5efe:a00:1 as ISATAP) "
                        + "of host [2001:db8::5efe:a00:1] is not allowed for outbound requests (private network)",
                "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "The address 169.254.169.254 (carried by "
                        + "64:ff9b::a9fe:a9fe as NAT64) of host [64:ff9b::a9fe:a9fe] is not allowed for outbound "
                        + "requests (link-local)",
                "http://[64:ff9b:1::7f00:1]:" + port + "/echo", "The address 64:ff9b:1::7f00:1 of host "
                        + "[64:ff9b:1::7f00:1] is not allowed for outbound requests (private network)");
        int before = TARGET.seen().size();

        refused.forEach((url, message) -> assertThatThrownBy(() -> DEFAULTS.send(get(url, 5), StopSignal.NEVER))
                .as(url).isInstanceOf(HttpException.class).hasMessageContaining(message));
        assertThatThrownBy(() -> ALLOWS_127_0_0_1.send(get("http://[2002:7f00:2::]:" + port + "/echo", 5),
                StopSignal.NEVER)).isInstanceOf(HttpException.class).hasMessageContaining("The address 127.0.0.2 "
                        + "(carried by 2002:7f00:2:: as 6to4)");

        assertThat(TARGET.seen()).hasSize(before);
    }

    @Test
    void aRedirectFromAnAllowedTargetToARefusedOneIsNotFollowed() {
        String other = "http://127.0.0.2:" + OTHER.getAddress().getPort() + "/inside";
        int hits = OTHER_HITS.get();

        assertThatThrownBy(() -> ALLOWS_127_0_0_1.send(get(redirect(302, other), 5), StopSignal.NEVER))
                .isInstanceOf(HttpException.class).hasMessageContaining("The address 127.0.0.2 of host 127.0.0.2 "
                        + "is not allowed for outbound requests (loopback)");
        assertThat(OTHER_HITS.get()).isEqualTo(hits);
        assertThatThrownBy(() -> ALLOWS_127_0_0_1.send(get(redirect(307, "http://169.254.169.254/latest/meta-data/"),
                5), StopSignal.NEVER)).hasMessageContaining("The address 169.254.169.254")
                .hasMessageContaining("(link-local)");
    }

    @Test
    void redirectsToAllowedTargetsAreFollowedUpToTwentyHops() {
        HttpAnswer followed = ALLOWS_127_0_0_1.send(get(redirect(302, TARGET.url("/echo")), 5), StopSignal.NEVER);
        assertThat(followed.status()).isEqualTo(200);
        assertThat(TARGET.seen().get(TARGET.seen().size() - 1).uri()).isEqualTo("/echo");

        String loop = TARGET.url("/echo");
        for (int i = 0; i < 21; i++) {
            loop = redirect(302, loop);
        }
        String tooMany = loop;
        assertThatThrownBy(() -> ALLOWS_127_0_0_1.send(get(tooMany, 5), StopSignal.NEVER))
                .isInstanceOf(HttpException.class).hasMessageContaining("Exceeded maximum allowed redirects");

        String twenty = TARGET.url("/echo");
        for (int i = 0; i < 20; i++) {
            twenty = redirect(301, twenty);
        }
        assertThat(ALLOWS_127_0_0_1.send(get(twenty, 5), StopSignal.NEVER).status()).isEqualTo(200);
    }

}
