package dev.hexaflow.adapters.nodes.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OnFirstUseHttpClientTest {

    private HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();

    @BeforeEach
    void startServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void theClientIsBuiltByItsFirstCallWithWhatTheBuilderHoldsThen() throws Exception {
        HttpClient.Builder builder = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER);
        HttpClient client = OnFirstUseHttpClient.of(builder);

        builder.connectTimeout(Duration.ofSeconds(7)).version(HttpClient.Version.HTTP_1_1);
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(uri()).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("hello");
        assertThat(client.connectTimeout()).as("set on the builder after of(), before the first call")
                .contains(Duration.ofSeconds(7));
        assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(client.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
    }

    @Test
    void laterCallsAndAsynchronousOnesGoThroughTheSameClient() throws Exception {
        HttpClient client = OnFirstUseHttpClient.of(HttpClient.newBuilder());

        client.send(HttpRequest.newBuilder(uri()).build(), HttpResponse.BodyHandlers.discarding());
        javax.net.ssl.SSLContext first = client.sslContext();
        HttpResponse<String> async = client.sendAsync(HttpRequest.newBuilder(uri()).build(),
                HttpResponse.BodyHandlers.ofString()).get();

        assertThat(async.body()).isEqualTo("hello");
        assertThat(client.sslContext()).isSameAs(first);
        assertThat(requests).hasValue(2);
    }

    private URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }
}
