package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.CampusSettings;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.domain.limit.RateLimit;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Request rates on the real server: per key on every /v1 request, per end user on every start (a key's end user
 * and a web page's alike), per campus key on /v2, each refused with 429 and a Retry-After right for the rate.
 */
class RequestRatesHttpTest {

    @TempDir
    Path dataDir;

    private TestServer server;
    private String appId;
    private String site;
    private ServiceApi key;

    @BeforeEach
    void start() {
        Configuration config = TestServer.config(dataDir);
        server = TestServer.start(config.withCampus(new CampusSettings(Optional.of(new RateLimit(6, 2)))));
        JsonNode imported = server.importApp("echo.yml");
        appId = imported.get("app_id").asText();
        site = imported.get("site_code").asText();
        key = server.api(imported.get("api_key").asText());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aBurstPastAKeysRateAdmitsExactlyTheBurstAndRefusesTheRestWithRetryAfter() {
        limits("{\"rate_per_key\": {\"per_minute\": 6, \"burst\": 3}}");

        int admitted = 0;
        HttpResponse<String> refused = null;
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> answer = key.get("/v1/parameters");
            if (answer.statusCode() == 200) {
                admitted++;
            } else {
                refused = answer;
            }
        }

        assertThat(admitted).as("the burst, and no more within 10 s").isEqualTo(3);
        assertTooMany(refused, "Rate limit of 6 requests a minute (3 at once) for this key reached");
        assertThat(retryAfter(refused)).as("6 a minute: a token in 10 s").isBetween(9L, 10L);
        limits("{\"rate_per_key\": {\"per_minute\": 60, \"burst\": 1}}");
        HttpResponse<String> faster = key.get("/v1/parameters");
        assertThat(faster.statusCode()).isEqualTo(429);
        assertThat(retryAfter(faster)).as("60 a minute: a token within 1 s").isEqualTo(1);
    }

    @Test
    void aKeysBucketRefillsAtItsRate() throws InterruptedException {
        limits("{\"rate_per_key\": {\"per_minute\": 600, \"burst\": 1}}");
        HttpResponse<String> refused = key.get("/v1/parameters");
        // 600 a minute is a token every 100 ms: a loaded machine may take that long between two requests.
        for (int i = 0; i < 200 && refused.statusCode() == 200; i++) {
            refused = key.get("/v1/parameters");
        }
        assertTooMany(refused, "for this key");
        assertThat(retryAfter(refused)).isEqualTo(1);

        Thread.sleep(150);

        assertThat(key.get("/v1/parameters").statusCode()).isEqualTo(200);
    }

    @Test
    void eachEndUserOfAKeyStartsRunsAtItsOwnRate() {
        limits("{\"rate_per_end_user\": {\"per_minute\": 6, \"burst\": 2}}");

        assertThat(run(key, "ann").statusCode()).isEqualTo(200);
        assertThat(run(key, "ann").statusCode()).isEqualTo(200);
        HttpResponse<String> third = run(key, "ann");

        assertTooMany(third, "for this end user");
        assertThat(retryAfter(third)).as("6 a minute: a token within 10 s").isBetween(1L, 10L);
        assertThat(run(key, "bob").statusCode()).as("another end user of the key").isEqualTo(200);
        for (int i = 0; i < 5; i++) {
            assertThat(key.get("/v1/parameters?user=ann").statusCode()).as("only starts count").isEqualTo(200);
        }
    }

    @Test
    void aWebPagesTokenStartsRunsAtItsUsersRate() {
        limits("{\"rate_per_end_user\": {\"per_minute\": 6, \"burst\": 1}}");
        TestServer.PageToken visitor = server.pageToken(site, null);
        ServiceApi page = server.api(visitor.token());

        assertThat(run(page, visitor.user()).statusCode()).isEqualTo(200);
        assertTooMany(run(page, visitor.user()), "for this end user");
        assertTooMany(run(key, visitor.user()), "for this end user");
        TestServer.PageToken other = server.pageToken(site, null);
        assertThat(run(server.api(other.token()), other.user()).statusCode()).isEqualTo(200);
    }

    @Test
    void aCampusKeyPastTheServersRateIsRefusedInTheFeedsEnvelope() {
        String first = server.issueCampusKey();
        String second = server.issueCampusKey();
        long before = json(server.get("/v2/events/holidays.json?key=" + first)).get("meta").get("requests")
                .asLong();
        assertThat(server.get("/v2/events/holidays.json?key=" + first).statusCode()).isEqualTo(200);

        HttpResponse<String> refused = server.get("/v2/events/holidays.json?key=" + first);

        assertThat(refused.statusCode()).isEqualTo(429);
        JsonNode meta = json(refused).get("meta");
        assertThat(meta.get("status").asInt()).isEqualTo(429);
        assertThat(meta.get("message").asText()).isEqualTo("API request limit reached");
        assertThat(meta.get("requests").asLong()).as("a refused call counts no usage").isEqualTo(before + 1);
        assertThat(json(refused).has("data")).isTrue();
        assertThat(retryAfter(refused)).as("6 a minute").isBetween(9L, 10L);
        assertThat(server.get("/v2/events/holidays.json?key=" + second).statusCode()).isEqualTo(200);
        assertThat(server.get("/v2/events/holidays.json").statusCode()).as("no key: no key's rate").isEqualTo(200);
    }

    @Test
    void badRatesAreRefusedNamingTheField() {
        HttpResponse<String> noBurst = server.admin("PUT", "/admin/apps/" + appId + "/limits", "application/json",
                "{\"rate_per_key\": {\"per_minute\": 60, \"burst\": 0}}");
        assertThat(noBurst.statusCode()).as(noBurst.body()).isEqualTo(400);
        assertThat(json(noBurst).get("message").asText()).contains("burst");

        HttpResponse<String> negative = server.admin("PUT", "/admin/apps/" + appId + "/limits", "application/json",
                "{\"rate_per_end_user\": {\"per_minute\": -5, \"burst\": 2}}");
        assertThat(negative.statusCode()).as(negative.body()).isEqualTo(400);
        assertThat(json(negative).get("message").asText()).contains("rate_per_end_user");

        for (int i = 0; i < 10; i++) {
            assertThat(key.get("/v1/parameters").statusCode()).as("nothing was set").isEqualTo(200);
        }
    }

    private void limits(String body) {
        HttpResponse<String> answer = server.admin("PUT", "/admin/apps/" + appId + "/limits", "application/json",
                body);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    private static HttpResponse<String> run(ServiceApi api, String user) {
        return api.postJson("/v1/workflows/run", ServiceApi.run(Map.of("query", "hi"), "blocking", user));
    }

    private static void assertTooMany(HttpResponse<String> answer, String saying) {
        assertThat(answer).isNotNull();
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(429);
        assertThat(json(answer).get("code").asText()).isEqualTo("too_many_requests");
        assertThat(json(answer).get("status").asInt()).isEqualTo(429);
        assertThat(json(answer).get("message").asText()).contains(saying);
    }

    private static long retryAfter(HttpResponse<String> answer) {
        return Long.parseLong(answer.headers().firstValue("Retry-After").orElseThrow());
    }
}
