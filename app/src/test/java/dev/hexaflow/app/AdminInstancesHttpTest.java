package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /admin/instances}: the store's state and the instance answering, with its live lease. */
class AdminInstancesHttpTest {

    @TempDir
    Path dataDir;

    @Test
    void theAnsweringInstanceIsListedWithItsLiveLeaseAndWhereItServesAndTheStoreIsOk() throws InterruptedException {
        try (TestServer server = TestServer.start(dataDir)) {
            // The lease is taken at the first renewal, a few seconds after the start.
            JsonNode body = null;
            for (int i = 0; i < 150 && (body == null || body.get("instances").isEmpty()); i++) {
                HttpResponse<String> answer = server.admin("GET", "/admin/instances", null, null);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                body = TestServer.json(answer);
                Thread.sleep(100);
            }
            assertThat(body.get("store").get("status").asText()).isEqualTo("ok");
            assertThat(body.get("instances")).hasSize(1);
            JsonNode self = body.get("instances").get(0);
            assertThat(self.get("answering").asBoolean()).isTrue();
            assertThat(self.get("live").asBoolean()).isTrue();
            assertThat(self.get("renewed_at").asLong()).isGreaterThanOrEqualTo(self.get("started_at").asLong());
            String port = server.baseUrl().substring(server.baseUrl().lastIndexOf(':') + 1);
            assertThat(self.get("origin").asText()).endsWith(":" + port);
            assertThat(server.send("GET", "/admin/instances", null, null, "not-the-token").statusCode())
                    .isEqualTo(401);
        }
    }
}
