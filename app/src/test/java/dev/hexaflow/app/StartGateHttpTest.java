package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.http.JavalinHttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server starts before its database is ready, and holds requests until it is: none is answered early. */
class StartGateHttpTest {

    @Test
    void aRequestThatComesBeforeTheServicesAreReadyWaitsForThemAndIsAnsweredThen() throws Exception {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        JavalinHttpServer server = JavalinHttpServer.start("127.0.0.1", 0, 1024, List.of(), ready);
        try {
            CompletableFuture<HttpResponse<String>> answer = HttpClient.newHttpClient().sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());

            Thread.sleep(300);
            assertThat(answer).isNotDone();
            ready.complete(null);

            HttpResponse<String> response = answer.get(10, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("{\"status\":\"ok\"}");
        } finally {
            server.close();
        }
    }

    @Test
    void aServerWhoseServicesAreReadyAnswersAtOnce() throws Exception {
        JavalinHttpServer server = JavalinHttpServer.start("127.0.0.1", 0, 1024, List.of(),
                CompletableFuture.completedFuture(null));
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
        } finally {
            server.close();
        }
    }
}
