package dev.hexaflow.adapters.nodes.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Real failures of the JDK's client on loopback, each named in words a person reads. */
class NetworkFailuresTest {

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aPortWhereNothingListensIsARefusedConnection() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        assertThat(NetworkFailures.reason(failureOf(port))).isEqualTo("the connection was refused");
    }

    @Test
    void aServerThatClosesWithoutAnsweringClosedTheConnectionEarly() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread closer = daemon(() -> {
                while (!server.isClosed()) {
                    try (Socket accepted = server.accept()) {
                        accepted.getInputStream().read();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            for (int attempt = 0; attempt < 5; attempt++) {
                assertThat(NetworkFailures.reason(failureOf(server.getLocalPort())))
                        .isEqualTo("the connection closed before an answer came");
            }
            server.close();
            closer.join(5_000);
        }
    }

    @Test
    void aResetConnectionClosedTheConnectionEarly() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread resetter = daemon(() -> {
                while (!server.isClosed()) {
                    try (Socket accepted = server.accept()) {
                        accepted.getInputStream().read();
                        accepted.setSoLinger(true, 0);
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            assertThat(NetworkFailures.reason(failureOf(server.getLocalPort())))
                    .isEqualTo("the connection closed before an answer came");
            server.close();
            resetter.join(5_000);
        }
    }

    @Test
    void aFailureWithNoKnownKindKeepsItsOwnMessageAndNeverSaysNull() {
        assertThat(NetworkFailures.reason(new IOException("proxy said no"))).isEqualTo("proxy said no");
        assertThat(NetworkFailures.reason(new IOException((String) null))).isEqualTo("the connection failed");
    }

    private static Thread daemon(Runnable work) {
        Thread thread = new Thread(work, "loopback-server");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private Throwable failureOf(int port) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).timeout(Duration.ofSeconds(10)).build();
        Throwable failure = catchThrowable(() -> client.send(request, HttpResponse.BodyHandlers.ofString()));
        assertThat(failure).isInstanceOf(IOException.class);
        return failure;
    }
}
