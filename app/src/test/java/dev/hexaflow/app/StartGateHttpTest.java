package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.http.server.JavalinHttpServer;
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

    @Test
    void readinessSaysStartingUntilTheStartHasFinishedThenReadyThenDrainingWithoutBeingHeld() throws Exception {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        JavalinHttpServer server = JavalinHttpServer.start("127.0.0.1", 0, 1024, List.of(), ready);
        try {
            HttpResponse<String> starting = get(server, "/readyz");
            assertThat(starting.statusCode()).isEqualTo(503);
            assertThat(starting.body()).isEqualTo("{\"status\":\"starting\"}");

            ready.complete(null);
            assertThat(get(server, "/readyz").statusCode()).as("the database is ready, the start not finished")
                    .isEqualTo(503);
            server.markReady();
            assertThat(get(server, "/readyz").body()).isEqualTo("{\"status\":\"ready\"}");
            assertThat(get(server, "/health").statusCode()).isEqualTo(200);

            server.drain();
            HttpResponse<String> draining = get(server, "/readyz");
            assertThat(draining.statusCode()).isEqualTo(503);
            assertThat(draining.body()).isEqualTo("{\"status\":\"draining\"}");
            assertThat(get(server, "/health").body()).isEqualTo("{\"status\":\"draining\"}");
            HttpResponse<String> refused = get(server, "/admin/apps");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("\"code\":\"service_unavailable\"");
        } finally {
            server.close();
        }
    }

    private static HttpResponse<String> get(JavalinHttpServer server, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.port() + path)).timeout(java.time.Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
