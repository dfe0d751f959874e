package dev.hexaflow.adapters.nodes.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ServerSocketFactory;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The calling thread's HTTP/1.1 client against bare-socket servers on loopback that count their connections. */
class Http1ClientTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void chunkedLengthAndClosedBodiesAreReadWholeAndKeptConnectionsAreReused() throws IOException {
        List<String> answers = List.of(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nHello\r\n7\r\n, world\r\n0\r\nT: t\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nagain",
                "HTTP/1.1 201 Created\r\nConnection: close\r\n\r\nuntil the close",
                "HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nnext");
        try (Server server = new Server(ServerSocketFactory.getDefault())) {
            server.answers.addAll(answers);
            Http1Client client = new Http1Client(WAIT);

            assertThat(body(client, server.uri("/a"))).isEqualTo("Hello, world");
            assertThat(body(client, server.uri("/b?q=1"))).isEqualTo("again");
            try (Http1Response third = post(client, server.uri("/c"))) {
                assertThat(third.statusCode()).isEqualTo(201);
                assertThat(third.keepsConnection()).isFalse();
                assertThat(new String(third.body().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("until the close");
            }

            assertThat(server.connections.get()).as("the first three over one connection").isEqualTo(1);
            assertThat(body(client, server.uri("/d"))).as("over a new one").isEqualTo("next");
            assertThat(server.connections.get()).isEqualTo(2);
            assertThat(server.requests.get(0)).startsWith("POST /a HTTP/1.1\r\nHost: 127.0.0.1:" + server.port()
                    + "\r\nX-Asked: yes\r\nContent-Length: 4\r\n\r\nbody");
            assertThat(server.requests.get(1)).startsWith("POST /b?q=1 HTTP/1.1\r\n");
        }
    }

    @Test
    void aKeptConnectionTheServerClosedWhileIdleIsFoundClosedAndTheCallGoesOverANewOne() throws Exception {
        try (Server server = new Server(ServerSocketFactory.getDefault())) {
            server.closeAfterEach = true;
            server.answers.add("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none");
            server.answers.add("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo");
            Http1Client client = new Http1Client(WAIT);

            assertThat(body(client, server.uri("/"))).isEqualTo("one");
            Thread.sleep(Http1Client.CHECKED_AFTER.toMillis() + 200);
            assertThat(body(client, server.uri("/"))).isEqualTo("two");
            assertThat(server.connections.get()).isEqualTo(2);
            assertThat(server.requests).hasSize(2);
        }
    }

    @Test
    void aRequestTheServerMayHaveHadIsNeverSentTwice() throws Exception {
        try (Server server = new Server(ServerSocketFactory.getDefault())) {
            server.closeAfterEach = true;
            server.answers.add("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none");
            Http1Client client = new Http1Client(WAIT);
            assertThat(body(client, server.uri("/"))).isEqualTo("one");
            server.awaitClosed();

            assertThatThrownBy(() -> body(client, server.uri("/"))).isInstanceOf(IOException.class);
            assertThat(server.requests.size()).as("asked once, not again on a new connection").isLessThanOrEqualTo(2);
            assertThat(server.connections.get()).isEqualTo(1);
        }
    }

    @Test
    void aLateBreakOffOfAnEndedCallLeavesTheConnectionToTheNextCall() throws IOException {
        try (Server server = new Server(ServerSocketFactory.getDefault())) {
            server.answers.add("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\none");
            server.answers.add("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ntwo");
            Http1Client client = new Http1Client(WAIT);
            AtomicReference<Runnable> firstBreakOff = new AtomicReference<>();
            try (Http1Response first = client.post(server.uri("/"), Map.of(), new byte[0], WAIT, firstBreakOff::set)) {
                assertThat(first.body().readAllBytes()).hasSize(3);
            }

            try (Http1Response second = client.post(server.uri("/"), Map.of(), new byte[0], WAIT, close -> { })) {
                firstBreakOff.get().run();
                assertThat(new String(second.body().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("two");
            }
            assertThat(server.connections.get()).isEqualTo(1);
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOutAsTheJdksClientDoesAndABrokenOffWaitEndsAtOnce() throws Exception {
        try (Server server = new Server(ServerSocketFactory.getDefault())) {
            Http1Client client = new Http1Client(WAIT);
            long started = System.nanoTime();

            assertThatThrownBy(() -> client.post(server.uri("/"), Map.of(), new byte[0], Duration.ofMillis(300),
                    close -> { })).isInstanceOf(HttpTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(WAIT);
            assertThat(NetworkFailures.reason(new IOException(new HttpTimeoutException("request timed out"))))
                    .isEqualTo("it did not answer in time");

            AtomicReference<Runnable> breakOff = new AtomicReference<>();
            Thread stopper = new Thread(() -> {
                while (breakOff.get() == null) {
                    Thread.onSpinWait();
                }
                breakOff.get().run();
            });
            stopper.start();
            assertThatThrownBy(() -> client.post(server.uri("/"), Map.of(), new byte[0], WAIT, breakOff::set))
                    .isInstanceOf(IOException.class).isNotInstanceOf(HttpTimeoutException.class);
            stopper.join();
        }
    }

    @Test
    void aHeaderThatWouldSplitTheRequestAndAnOverlongAnswerHeadAreRefused() throws IOException {
        try (Server server = new Server(ServerSocketFactory.getDefault())) {
            server.answers.add("HTTP/1.1 200 OK\r\nX-Long: " + "x".repeat(70 * 1024) + "\r\n\r\n");
            Http1Client client = new Http1Client(WAIT);

            assertThatThrownBy(() -> client.post(server.uri("/"), Map.of("X-A", "1\r\nX-Injected: 1"), new byte[0],
                    WAIT, close -> { })).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> client.post(server.uri("/"), Map.of("Content-Length", "1"), new byte[0],
                    WAIT, close -> { })).isInstanceOf(IllegalArgumentException.class);
            assertThat(server.requests).as("nothing was sent").isEmpty();
            assertThatThrownBy(() -> post(client, server.uri("/"))).isInstanceOf(IOException.class)
                    .hasMessageContaining("longer than");
        }
    }

    @Test
    void httpsChecksTheServersNameAgainstItsCertificate() throws Exception {
        SSLContext tls = selfSigned();
        try (Server server = new Server(tls.getServerSocketFactory())) {
            server.answers.add("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecret");
            Http1Client client = new Http1Client(WAIT, tls.getSocketFactory());

            assertThat(body(client, URI.create("https://localhost:" + server.port() + "/"))).isEqualTo("secret");
            assertThatThrownBy(() -> post(client, URI.create("https://127.0.0.1:" + server.port() + "/")))
                    .isInstanceOf(SSLHandshakeException.class);
        }
    }

    private static Http1Response post(Http1Client client, URI uri) throws IOException {
        return client.post(uri, Map.of("X-Asked", "yes"), "body".getBytes(StandardCharsets.UTF_8), WAIT,
                close -> { });
    }

    private static String body(Http1Client client, URI uri) throws IOException {
        try (Http1Response response = post(client, uri)) {
            return new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A key pair for {@code localhost} only (no address in the certificate), made by the JDK's keytool. */
    private SSLContext selfSigned() throws Exception {
        Path store = dir.resolve("tls.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "t", "-keyalg", "EC", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "secret1",
                "-keypass", "secret1").redirectErrorStream(true).start();
        String said = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as(said).isZero();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(store.toFile())) {
            keys.load(in, "secret1".toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, "secret1".toCharArray());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    /** Answers each request with the next of its answers, as written; with none left it reads and says nothing. */
    private static final class Server implements AutoCloseable {
        final List<String> answers = new CopyOnWriteArrayList<>();
        final List<String> requests = new CopyOnWriteArrayList<>();
        final AtomicInteger connections = new AtomicInteger();
        final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        volatile boolean closeAfterEach;
        private final ServerSocket socket;

        Server(ServerSocketFactory factory) throws IOException {
            socket = factory.createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread accepting = new Thread(this::accept);
            accepting.setDaemon(true);
            accepting.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port() + path);
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connections.incrementAndGet();
                    Thread serving = new Thread(() -> serve(connection));
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket connection) {
            try (connection) {
                InputStream in = connection.getInputStream();
                while (true) {
                    String request = readRequest(in);
                    if (request == null) {
                        return;
                    }
                    requests.add(request);
                    if (answers.isEmpty()) {
                        in.readAllBytes();
                        return;
                    }
                    String answer = answers.remove(0);
                    connection.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
                    connection.getOutputStream().flush();
                    if (closeAfterEach || answer.contains("Connection: close")) {
                        return;
                    }
                }
            } catch (IOException e) {
                // The client went away.
            } finally {
                closed.countDown();
            }
        }

        void awaitClosed() throws InterruptedException {
            assertThat(closed.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }

        /** A request's head and its body of Content-Length bytes, or null at the connection's end. */
        private static String readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int last4 = 0;
            for (int b = in.read(); b >= 0; b = in.read()) {
                head.write(b);
                last4 = last4 << 8 | b;
                if (last4 == 0x0d0a0d0a) {
                    String text = head.toString(StandardCharsets.ISO_8859_1);
                    int at = text.indexOf("Content-Length: ");
                    int length = at < 0 ? 0 : Integer.parseInt(text.substring(at + 16, text.indexOf('\r', at)));
                    return text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
