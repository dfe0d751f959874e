package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /admin/instances} on H2: the store's state, and no instance, since one alone on its store holds no
 * lease ({@code PostgresInstancesTest} lists two that share one).
 */
class AdminInstancesHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void aServerAloneOnItsStoreSaysSoWithTheStoresStateAndNoLease() {
        try (TestServer server = TestServer.start(dataDir)) {
            HttpResponse<String> answer = server.admin("GET", "/admin/instances", null, null);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            JsonNode body = TestServer.json(answer);
            assertThat(body.get("store").get("status").asText()).isEqualTo("ok");
            assertThat(body.get("shared").asBoolean()).isFalse();
            assertThat(body.get("instances")).isEmpty();
            assertThat(server.send("GET", "/admin/instances", null, null, "not-the-token").statusCode())
                    .isEqualTo(401);
        }
    }
}
