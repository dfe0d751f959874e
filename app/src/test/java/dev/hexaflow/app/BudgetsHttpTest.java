package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.LimitSettings;
import dev.hexaflow.domain.limit.AppLimits;
import dev.hexaflow.domain.limit.TokenPrice;
import dev.hexaflow.engine.EngineConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Token budgets on a real server, with a fake model on loopback reporting 10 tokens a call (7 in, 3 out) and a
 * workflow that calls it twice: a run over a budget is refused with 429 {@code budget_exceeded} naming the budget
 * and when it resets; a run crossing a stopping budget fails with that reason after the call that crossed it; with
 * {@code finish} it ends and the next is refused; per key, per end user, by day and by month; readable by the
 * operator and the caller; and still spent after a restart on the same data.
 */
class BudgetsHttpTest {

    @TempDir
    Path dataDir;
    FakeModelServer model;
    TestServer server;
    String appId;
    String key;

    @BeforeEach
    void start() {
        model = new FakeModelServer();
        model.answer(Script.text("fine", 7, 3));
        server = startServer();
        JsonNode imported = server.importApp("two-model-calls.yml");
        appId = imported.get("app_id").asText();
        key = imported.get("api_key").asText();
    }

    private TestServer startServer() {
        return TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-fake-model-key-0123")));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        model.close();
    }

    @Test
    void anEndUsersDailyBudgetStopsTheRunThatCrossesItThenRefusesTheNextAndLeavesOthersAlone() {
        setLimits("{\"budgets\": [{\"scope\": \"end_user\", \"period\": \"day\", \"amount\": 25}],"
                + " \"on_crossing\": \"stop\", \"time_zone\": \"Europe/Berlin\"}");
        ServiceApi api = server.api(key);

        assertThat(run(api, "ada").get("data").get("status").asText()).isEqualTo("succeeded");
        JsonNode crossing = run(api, "ada").get("data");
        String resets = LocalDate.now(ZoneId.of("Europe/Berlin")).plusDays(1).atStartOfDay(ZoneId.of("Europe/Berlin"))
                .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        String spent = "The end user's daily budget of 25 tokens is spent; it resets at " + resets + ".";
        assertThat(crossing.get("status").asText()).isEqualTo("failed");
        assertThat(crossing.get("error").asText()).startsWith("The end user's daily budget of 25 tokens is spent");
        assertThat(model.requests()).as("the second run stopped after its first call").hasSize(3);

        HttpResponse<String> refused = api.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking",
                "ada"));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(json(refused).get("code").asText()).isEqualTo("budget_exceeded");
        assertThat(json(refused).get("status").asInt()).isEqualTo(429);
        assertThat(json(refused).get("message").asText()).isEqualTo(spent);
        assertThat(model.requests()).as("a refused run calls no model").hasSize(3);
        assertThat(run(api, "bob").get("data").get("status").asText()).isEqualTo("succeeded");

        JsonNode ada = json(server.admin("GET", "/admin/apps/" + appId + "/budgets?user=ada", null, null));
        assertThat(ada.get("budgets")).hasSize(1);
        assertThat(ada.get("budgets").get(0).get("holder").asText()).isEqualTo("ada");
        assertThat(ada.get("budgets").get(0).get("spent").asLong()).isEqualTo(30);
        assertThat(ada.get("budgets").get(0).get("remaining").asLong()).isZero();
        assertThat(ada.get("budgets").get(0).get("resets_at").asText()).isEqualTo(resets);
        JsonNode bob = json(api.get("/v1/budgets?user=bob"));
        assertThat(bob.get("budgets").get(0).get("spent").asLong()).isEqualTo(20);
        assertThat(bob.get("budgets").get(0).get("remaining").asLong()).isEqualTo(5);
    }

    @Test
    void anAppsMonthlyBudgetWithFinishLetsTheCrossingRunEndAndRefusesTheNext() {
        setLimits("{\"budgets\": [{\"scope\": \"app\", \"period\": \"month\", \"measure\": \"tokens\","
                + " \"amount\": 25}], \"on_crossing\": \"finish\"}");
        ServiceApi api = server.api(key);
        assertThat(run(api, "ada").get("data").get("status").asText()).isEqualTo("succeeded");
        assertThat(run(api, "bob").get("data").get("status").asText()).as("it crosses, and finishes")
                .isEqualTo("succeeded");
        HttpResponse<String> refused = api.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking",
                "cid"));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(json(refused).get("message").asText()).startsWith("The app's monthly budget of 25 tokens is spent;"
                + " it resets at " + LocalDate.now(ZoneId.of("UTC")).withDayOfMonth(1).plusMonths(1) + "T00:00:00Z.");
        JsonNode left = json(server.admin("GET", "/admin/apps/" + appId + "/budgets", null, null));
        assertThat(left.get("budgets").get(0).get("spent").asLong()).isEqualTo(40);
    }

    @Test
    void aKeysBudgetHoldsThatKeyAloneAndIsReadByTheKeyOrItsId() {
        String other = json(server.admin("POST", "/admin/apps/" + appId + "/keys", null, null)).get("api_key").asText();
        setLimits("{\"budgets\": [{\"scope\": \"key\", \"period\": \"day\", \"amount\": 15}],"
                + " \"on_crossing\": \"finish\"}");
        ServiceApi first = server.api(key);
        assertThat(run(first, "ada").get("data").get("status").asText()).isEqualTo("succeeded");
        HttpResponse<String> refused = first.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking",
                "bob"));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(json(refused).get("message").asText()).startsWith("The key's daily budget of 15 tokens is spent");
        assertThat(run(server.api(other), "ada").get("data").get("status").asText()).isEqualTo("succeeded");

        JsonNode byKey = json(server.admin("GET", "/admin/apps/" + appId + "/budgets?key=" + key, null, null));
        String keyId = byKey.get("budgets").get(0).get("holder").asText();
        assertThat(byKey.get("budgets").get(0).get("spent").asLong()).isEqualTo(20);
        JsonNode byId = json(server.admin("GET", "/admin/apps/" + appId + "/budgets?key=" + keyId, null, null));
        assertThat(byId.get("budgets").get(0).get("spent").asLong()).isEqualTo(20);
        JsonNode listed = json(server.admin("GET", "/admin/apps/" + appId + "/keys", null, null));
        assertThat(listed.get("data").findValuesAsText("id")).contains(keyId);
        assertThat(json(server.api(other).get("/v1/budgets")).get("budgets").get(0).get("spent").asLong())
                .as("the other key's own budget").isEqualTo(20);
    }

    @Test
    void whatWasSpentIsStillSpentAfterARestartOnTheSameData() {
        setLimits("{\"budgets\": [{\"scope\": \"end_user\", \"period\": \"month\", \"amount\": 20}]}");
        ServiceApi api = server.api(key);
        run(api, "ada");
        server.close();
        server = startServer();
        HttpResponse<String> refused = server.api(key).postJson("/v1/workflows/run", ServiceApi.run(Map.of(),
                "blocking", "ada"));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(json(refused).get("code").asText()).isEqualTo("budget_exceeded");
        JsonNode ada = json(server.admin("GET", "/admin/apps/" + appId + "/budgets?user=ada", null, null));
        assertThat(ada.get("budgets").get(0).get("spent").asLong()).isEqualTo(20);
    }

    /** 7 input and 3 output tokens a call at 0.1 and 1.0 a token: 3.7 a call, 7.4 a run of two calls. */
    @Test
    void aPriceBudgetCountsTheConfiguredPriceOfTheTokens() {
        server.close();
        server = TestServer.start(TestServer.config(dataDir).withEngine(EngineConfiguration.fromEnvironment(
                Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(model.baseUrl(), "sk-fake-model-key-0123"))
                .withLimits(new LimitSettings(AppLimits.NONE, Duration.ofMillis(500), new TokenPrice(100_000,
                        1_000_000))));
        setLimits("{\"budgets\": [{\"scope\": \"app\", \"period\": \"day\", \"measure\": \"price\","
                + " \"amount\": 5}], \"on_crossing\": \"finish\"}");
        ServiceApi api = server.api(key);

        assertThat(run(api, "ada").get("data").get("status").asText()).as("it crosses, and finishes")
                .isEqualTo("succeeded");
        HttpResponse<String> refused = api.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking",
                "bob"));

        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(json(refused).get("code").asText()).isEqualTo("budget_exceeded");
        assertThat(json(refused).get("message").asText()).startsWith("The app's daily budget of");
        JsonNode left = json(server.admin("GET", "/admin/apps/" + appId + "/budgets", null, null));
        assertThat(left.get("budgets").get(0).get("measure").asText()).isEqualTo("price");
        assertThat(left.get("budgets").get(0).get("spent").asDouble()).isCloseTo(7.4, org.assertj.core.data.Offset
                .offset(0.001));
    }

    /** A chat turn counts against the key it came with, as a workflow run does: 10 tokens a turn. */
    @Test
    void aChatTurnSpendsItsKeysBudget() {
        JsonNode chat = server.importApp("chatflow-llm.yml");
        String chatApp = chat.get("app_id").asText();
        HttpResponse<String> set = server.admin("PUT", "/admin/apps/" + chatApp + "/limits", "application/json",
                "{\"budgets\": [{\"scope\": \"key\", \"period\": \"day\", \"amount\": 10}],"
                        + " \"on_crossing\": \"finish\"}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        ServiceApi api = server.api(chat.get("api_key").asText());
        Map<String, Object> turn = Map.of("query", "hello", "inputs", Map.of(), "response_mode", "blocking",
                "user", "ada");

        HttpResponse<String> first = api.postJson("/v1/chat-messages", turn);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        HttpResponse<String> refused = api.postJson("/v1/chat-messages", turn);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
        assertThat(json(refused).get("code").asText()).isEqualTo("budget_exceeded");
        assertThat(json(refused).get("message").asText()).startsWith("The key's daily budget of 10 tokens is spent");
    }

    @Test
    void aBudgetsReadingOfAnUnknownAppIsRefused() {
        assertThat(server.admin("GET", "/admin/apps/no-such-app/budgets", null, null).statusCode()).isEqualTo(404);
    }

    private void setLimits(String body) {
        HttpResponse<String> set = server.admin("PUT", "/admin/apps/" + appId + "/limits", "application/json", body);
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
    }

    private static JsonNode run(ServiceApi api, String user) {
        HttpResponse<String> response = api.postJson("/v1/workflows/run", ServiceApi.run(Map.of(), "blocking", user));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response);
    }
}
