package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.domain.webhook.RetrySchedule;
import dev.hexaflow.engine.EngineConfiguration;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Completion webhooks against a real receiver on loopback: a run's end is posted, signed with its app's secret, as
 * its detail reads; a receiver that fails, is slow, or comes back only after a restart gets it in the end, each
 * attempt listed; a post under way as the server closes keeps its outcome; a receiver that never answers holds up
 * its own app's deliveries, not another app's; an address the outbound policy refuses fails the delivery with the
 * policy's reason; a callback_url that is not an http(s) URL is refused before the run.
 */
class WebhookDeliveryHttpTest {

    /** Waits short enough for a test: 300 ms between attempts, a second for an answer. */
    static final RetrySchedule QUICK = new RetrySchedule(List.of(Duration.ofMillis(300)), Duration.ofHours(1),
            Duration.ofSeconds(1));

    @TempDir
    Path dataDir;
    final Receiver receiver = new Receiver();
    TestServer server;
    ServiceApi api;
    String appId;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        receiver.close();
    }

    private void start(RetrySchedule schedule, boolean allowLoopback) {
        Configuration config = TestServer.config(dataDir);
        if (allowLoopback) {
            config = config.withEngine(EngineConfiguration.fromEnvironment(
                    Map.of("HEXAFLOW_OUTBOUND_ALLOW", "127.0.0.1")));
        }
        server = TestServer.start(config.withService(config.service().withWebhooks(schedule)));
        if (appId == null) {
            JsonNode imported = server.importApp("slow.yml");
            appId = imported.get("app_id").asText();
            api = server.api(imported.get("api_key").asText());
        } else {
            api = server.api(api.key());
        }
    }

    private String runWithCallback(String mode, String callback) {
        Map<String, Object> body = new HashMap<>(ServiceApi.run(Map.of("millis", 1), mode, "ada"));
        if (callback != null) {
            body.put("callback_url", callback);
        }
        HttpResponse<String> answer = api.postJson("/v1/workflows/run", body);
        assertThat(answer.statusCode()).as(answer.body()).isIn(200, 202);
        if (mode.equals("streaming")) {
            String first = answer.body().lines().filter(line -> line.startsWith("data: ")).findFirst().orElseThrow();
            return TestServer.json(first.substring("data: ".length())).get("workflow_run_id").asText();
        }
        JsonNode json = json(answer);
        return json.has("workflow_run_id") ? json.get("workflow_run_id").asText() : json.get("data").get("id")
                .asText();
    }

    private JsonNode deliveryOf(String runId, Predicate<JsonNode> until) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            HttpResponse<String> list = server.admin("GET", "/admin/apps/" + appId + "/deliveries", null, null);
            assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
            for (JsonNode delivery : TestServer.json(list).get("data")) {
                if (delivery.get("workflow_run_id").asText().equals(runId)) {
                    last = delivery;
                    if (until.test(delivery)) {
                        return delivery;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the delivery of run " + runId + " did not get there; last seen: " + last);
    }

    private static Predicate<JsonNode> state(String state) {
        return delivery -> delivery.get("state").asText().equals(state);
    }

    private String rotateSecret() {
        HttpResponse<String> answer = server.admin("POST", "/admin/apps/" + appId + "/webhook-secret", null, null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
        return TestServer.json(answer).get("secret").asText();
    }

    @Test
    void aRunsEndIsPostedOnceAsItsDetailReadsSignedWithTheAppsSecret() throws Exception {
        start(QUICK, true);
        String secret = rotateSecret();

        String runId = runWithCallback("blocking", receiver.url("/hook"));

        Receiver.Received received = receiver.next();
        JsonNode delivery = deliveryOf(runId, state("delivered"));
        String timestamp = received.header("X-Hexaflow-Timestamp");
        assertThat(received.header("X-Hexaflow-Signature"))
                .isEqualTo("sha256=" + hmac(secret, timestamp, received.body()));
        assertThat(Long.parseLong(timestamp)).isCloseTo(System.currentTimeMillis() / 1000, within(30L));
        assertThat(received.header("X-Hexaflow-Delivery")).isEqualTo(delivery.get("id").asText());
        assertThat(received.header("Content-Type")).isEqualTo("application/json");
        assertThat(received.header("User-Agent")).isEqualTo("Hexaflow-Webhook/1");
        assertThat(received.header("Upgrade")).as("plain HTTP/1.1, no h2c upgrade").isNull();
        assertThat(new String(received.body(), StandardCharsets.UTF_8))
                .isEqualTo(api.get("/v1/workflows/run/" + runId).body());
        assertThat(delivery.get("attempts")).hasSize(1);
        assertThat(delivery.get("attempts").get(0).get("status_code").asInt()).isEqualTo(200);
        Thread.sleep(500);
        assertThat(receiver.count()).as("delivered once, not again").isEqualTo(1);
    }

    @Test
    void aReceiverThatFailsTwiceGetsTheRunOnTheThirdAttemptWithEachAttemptListed() throws Exception {
        start(QUICK, true);
        receiver.answer(500, 0).answer(502, 0);

        String runId = runWithCallback("streaming", receiver.url("/hook"));

        JsonNode delivery = deliveryOf(runId, state("delivered"));
        assertThat(delivery.get("attempt_count").asInt()).isEqualTo(3);
        assertThat(delivery.get("attempts").findValuesAsText("status_code")).containsExactly("500", "502", "200");
        assertThat(delivery.get("attempts").get(0).get("error").asText()).contains("500");
        assertThat(delivery.get("attempts").get(2).get("error").isNull()).isTrue();
        assertThat(receiver.count()).isEqualTo(3);
    }

    @Test
    void anOperatorRedeliversADeliveredRunAndTheReceiverGetsItAgainAsAFurtherAttempt() throws Exception {
        start(QUICK, true);
        String runId = runWithCallback("blocking", receiver.url("/hook"));
        Receiver.Received first = receiver.next();
        JsonNode delivered = deliveryOf(runId, state("delivered"));
        String path = "/admin/apps/" + appId + "/deliveries/" + delivered.get("id").asText() + "/redeliver";

        HttpResponse<String> asked = server.admin("POST", path, null, null);

        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(202);
        assertThat(TestServer.json(asked).get("state").asText()).isEqualTo("pending");
        Receiver.Received again = receiver.next();
        assertThat(new String(again.body(), StandardCharsets.UTF_8)).isEqualTo(new String(first.body(),
                StandardCharsets.UTF_8));
        assertThat(again.header("X-Hexaflow-Delivery")).isEqualTo(first.header("X-Hexaflow-Delivery"));
        JsonNode redelivered = deliveryOf(runId, delivery -> delivery.get("attempts").size() == 2
                && delivery.get("state").asText().equals("delivered"));
        assertThat(redelivered.get("attempts").findValuesAsText("number")).containsExactly("1", "2");
        assertThat(server.admin("POST", "/admin/apps/" + appId + "/deliveries/no-such-delivery/redeliver", null,
                null).statusCode()).isEqualTo(404);
        assertThat(server.admin("POST", "/admin/apps/no-such-app/deliveries/" + delivered.get("id").asText()
                + "/redeliver", null, null).statusCode()).isEqualTo(404);
    }

    @Test
    void aPendingDeliveryIsNotAskedAgain() throws Exception {
        start(QUICK, true);
        receiver.failAll(503);
        String runId = runWithCallback("blocking", receiver.url("/hook"));
        JsonNode pending = deliveryOf(runId, delivery -> delivery.get("attempt_count").asInt() >= 1);

        HttpResponse<String> asked = server.admin("POST", "/admin/apps/" + appId + "/deliveries/"
                + pending.get("id").asText() + "/redeliver", null, null);

        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(400);
        assertThat(TestServer.json(asked).get("message").asText()).contains("pending");
    }

    @Test
    void aReceiverSlowerThanTheTimeoutIsTriedAgain() throws Exception {
        start(QUICK, true);
        receiver.answer(200, 2500);

        String runId = runWithCallback("blocking", receiver.url("/slow"));

        JsonNode delivery = deliveryOf(runId, state("delivered"));
        JsonNode first = delivery.get("attempts").get(0);
        assertThat(first.get("status_code").isNull()).isTrue();
        assertThat(first.get("error").asText()).isEqualTo("No answer within 1000 ms.");
        // No upper bound beyond a generous one: a loaded machine may be slow to notice the timeout.
        assertThat(first.get("elapsed_ms").asLong()).isBetween(900L, 10_000L);
        assertThat(delivery.get("attempts").get(1).get("status_code").asInt()).isEqualTo(200);
    }

    @Test
    void aDeliveryPendingWhenTheServerStopsIsDeliveredAfterARestartOnTheSameData() throws Exception {
        RetrySchedule slowRetries = new RetrySchedule(List.of(Duration.ofSeconds(2)), Duration.ofHours(1),
                Duration.ofSeconds(1));
        start(slowRetries, true);
        receiver.failAll(503);
        String secret = rotateSecret();
        String runId = runWithCallback("blocking", receiver.url("/hook"));
        JsonNode pending = deliveryOf(runId, d -> d.get("attempt_count").asInt() >= 1);
        assertThat(pending.get("state").asText()).isEqualTo("pending");
        server.close();
        server = null;
        // Only now can an attempt succeed: one that does was made by the restarted server.
        receiver.recover();
        long restartedAt = System.currentTimeMillis();

        start(slowRetries, true);

        JsonNode delivered = deliveryOf(runId, state("delivered"));
        List<String> statuses = delivered.get("attempts").findValuesAsText("status_code");
        assertThat(statuses.subList(0, statuses.size() - 1)).isNotEmpty().containsOnly("503");
        assertThat(statuses.get(statuses.size() - 1)).isEqualTo("200");
        JsonNode succeeded = delivered.get("attempts").get(statuses.size() - 1);
        assertThat(succeeded.get("attempted_at").asLong()).as("made after the restart")
                .isGreaterThanOrEqualTo(restartedAt / 1000);
        Receiver.Received second = receiver.last();
        assertThat(second.header("X-Hexaflow-Signature")).isEqualTo("sha256="
                + hmac(secret, second.header("X-Hexaflow-Timestamp"), second.body()));
    }

    @Test
    void aPostUnderWayWhenTheServerClosesEndsAndKeepsItsOutcome() throws Exception {
        start(QUICK, true);
        receiver.answer(200, 700);
        String runId = runWithCallback("blocking", receiver.url("/hook"));
        receiver.next();

        server.close();
        server = null;
        start(QUICK, true);

        JsonNode delivery = deliveryOf(runId, d -> true);
        assertThat(delivery.get("state").asText()).as(delivery.toString()).isEqualTo("delivered");
        assertThat(delivery.get("attempts")).hasSize(1);
        assertThat(delivery.get("attempts").get(0).get("status_code").asInt()).isEqualTo(200);
        Thread.sleep(500);
        assertThat(receiver.count()).as("posted once").isEqualTo(1);
    }

    @Test
    void aReceiverThatNeverAnswersForOneAppDoesNotHoldUpAnotherAppsDelivery() throws Exception {
        RetrySchedule patient = new RetrySchedule(List.of(Duration.ofMillis(300)), Duration.ofHours(1),
                Duration.ofSeconds(30));
        start(patient, true);
        JsonNode other = server.importApp("slow.yml");
        ServiceApi otherApi = server.api(other.get("api_key").asText());
        try (Receiver others = new Receiver()) {
            for (int i = 0; i < 6; i++) {
                runWithCallback("blocking", receiver.url("/never"));
            }
            receiver.awaitRequests("/never", 1);

            long before = System.nanoTime();
            Map<String, Object> body = new HashMap<>(ServiceApi.run(Map.of("millis", 1), "blocking", "ada"));
            body.put("callback_url", others.url("/other"));
            HttpResponse<String> answer = otherApi.postJson("/v1/workflows/run", body);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            others.awaitRequests("/other", 1);

            assertThat(Duration.ofNanos(System.nanoTime() - before)).as("not behind the 30 s the other app's take")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(receiver.requests("/never")).as("the silent receiver holds at most an eighth of the senders")
                    .isBetween(1, 2);
        }
    }

    @Test
    void aReceiverThatNeverAnswersDoesNotHoldUpTheSameAppsDeliveryToAnotherReceiver() throws Exception {
        RetrySchedule patient = new RetrySchedule(List.of(Duration.ofMillis(300)), Duration.ofHours(1),
                Duration.ofSeconds(30));
        start(patient, true);
        try (Receiver operators = new Receiver()) {
            for (int i = 0; i < 12; i++) {
                runWithCallback("blocking", receiver.url("/never"));
            }
            receiver.awaitRequests("/never", 1);

            long before = System.nanoTime();
            runWithCallback("blocking", operators.url("/hook"));
            operators.awaitRequests("/hook", 1);

            assertThat(Duration.ofNanos(System.nanoTime() - before)).as("not behind the silent receiver's 30 s")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(receiver.requests("/never")).as("the silent receiver holds at most an eighth of the senders")
                    .isBetween(1, 2);
        }
    }

    @Test
    void aWebPagesTokenCannotNameACallbackAndNoDeliveryIsMade() {
        start(QUICK, true);
        String site = TestServer.json(server.admin("GET", "/admin/apps", null, null)).get("data").get(0)
                .get("site_code").asText();
        TestServer.PageToken page = server.pageToken(site, null);
        for (String mode : List.of("blocking", "streaming")) {
            Map<String, Object> body = new HashMap<>(ServiceApi.run(Map.of("millis", 1), mode, page.user()));
            body.put("callback_url", receiver.url("/stolen"));

            HttpResponse<String> answer = server.api(page.token()).postJson("/v1/workflows/run", body);

            assertThat(answer.statusCode()).as(mode + ": " + answer.body()).isEqualTo(403);
            assertThat(json(answer).get("code").asText()).isEqualTo("forbidden");
            assertThat(json(answer).get("message").asText()).contains("callback_url");
        }
        HttpResponse<String> withoutCallback = server.api(page.token()).postJson("/v1/workflows/run",
                ServiceApi.run(Map.of("millis", 1), "blocking", page.user()));
        assertThat(withoutCallback.statusCode()).as(withoutCallback.body()).isEqualTo(200);
        assertThat(TestServer.json(server.admin("GET", "/admin/apps/" + appId + "/deliveries", null, null))
                .get("total").asInt()).isZero();
        assertThat(receiver.count()).isZero();
    }

    @Test
    void anAddressTheOutboundPolicyRefusesFailsTheDeliveryWithThePolicysReason() throws Exception {
        start(QUICK, false);

        String runId = runWithCallback("blocking", receiver.url("/hook"));

        JsonNode failed = deliveryOf(runId, state("failed"));
        assertThat(failed.get("last_error").asText()).contains("127.0.0.1").contains("loopback")
                .contains("HEXAFLOW_OUTBOUND_ALLOW");
        assertThat(failed.get("attempts")).hasSize(1);
        assertThat(receiver.count()).isZero();
    }

    @Test
    void theAppsDefaultCallbackIsUsedWhenARunNamesNoneInEveryModeAndCanBeCleared() throws Exception {
        start(QUICK, true);
        HttpResponse<String> set = server.admin("PUT", "/admin/apps/" + appId, "application/json",
                "{\"callback_url\": \"" + receiver.url("/default") + "\"}");
        assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
        assertThat(TestServer.json(set).get("callback_url").asText()).isEqualTo(receiver.url("/default"));
        JsonNode listed = TestServer.json(server.admin("GET", "/admin/apps", null, null)).get("data");
        assertThat(listed.findValuesAsText("callback_url")).contains(receiver.url("/default"));

        String async = runWithCallback("async", null);
        String own = runWithCallback("blocking", receiver.url("/own"));

        assertThat(deliveryOf(async, state("delivered")).get("url").asText()).isEqualTo(receiver.url("/default"));
        assertThat(deliveryOf(own, state("delivered")).get("url").asText()).isEqualTo(receiver.url("/own"));

        HttpResponse<String> cleared = server.admin("PUT", "/admin/apps/" + appId, "application/json",
                "{\"callback_url\": null}");
        assertThat(TestServer.json(cleared).get("callback_url").isNull()).isTrue();
        String none = runWithCallback("blocking", null);
        Thread.sleep(500);
        JsonNode all = TestServer.json(server.admin("GET", "/admin/apps/" + appId + "/deliveries", null, null));
        assertThat(all.get("data").findValuesAsText("workflow_run_id")).doesNotContain(none).contains(async, own);
    }

    @Test
    void aCallbackUrlThatIsNotAnHttpUrlIsRefusedBeforeTheRunInDifysShape() {
        start(QUICK, true);
        List<Object> bad = List.of("ftp://example.com/hook", "not a url", "http://", 42,
                "https://example.com/" + "a".repeat(2048));
        for (String mode : List.of("blocking", "streaming", "async")) {
            for (Object url : bad) {
                Map<String, Object> body = new HashMap<>(ServiceApi.run(Map.of("millis", 1), mode, "ada"));
                body.put("callback_url", url);
                HttpResponse<String> answer = api.postJson("/v1/workflows/run", body);
                assertThat(answer.statusCode()).as(mode + " " + url + ": " + answer.body()).isEqualTo(400);
                assertThat(json(answer).get("code").asText()).isEqualTo("invalid_param");
                assertThat(json(answer).get("message").asText()).contains("callback_url");
            }
        }
        HttpResponse<String> setting = server.admin("PUT", "/admin/apps/" + appId, "application/json",
                "{\"callback_url\": \"file:///etc/passwd\"}");
        assertThat(setting.statusCode()).isEqualTo(400);
        assertThat(TestServer.json(server.admin("GET", "/admin/apps/" + appId + "/deliveries", null, null))
                .get("total").asInt()).isZero();
    }

    /** The signature as a receiver checks it: the hex HMAC-SHA256 of "<timestamp>.<body>" under the secret. */
    static String hmac(String secret, String timestamp, byte[] body) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(mac.doFinal(body));
    }

    private static org.assertj.core.data.Offset<Long> within(long offset) {
        return org.assertj.core.data.Offset.offset(offset);
    }

    /**
     * A webhook receiver on loopback: answers each request as told, in turn (a status after a delay), then 200,
     * and keeps what it received.
     */
    static final class Receiver implements AutoCloseable {

        record Received(Map<String, String> headers, byte[] body) {
            String header(String name) {
                return headers.get(name.toLowerCase(java.util.Locale.ROOT));
            }
        }

        private record Answer(int status, long delayMillis) {
        }

        private final HttpServer http;
        private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        /** The status every request gets while set, before the answers told one by one. */
        private volatile Integer failing;
        /** Holds the requests to {@code /never} until the receiver closes. */
        private final java.util.concurrent.CountDownLatch closing = new java.util.concurrent.CountDownLatch(1);
        private final Map<String, Integer> byPath = new java.util.concurrent.ConcurrentHashMap<>();
        private final BlockingQueue<Received> unread = new LinkedBlockingQueue<>();
        private final List<Received> all = java.util.Collections.synchronizedList(new ArrayList<>());

        Receiver() {
            try {
                http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            http.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
            http.createContext("/", exchange -> {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                Map<String, String> headers = new HashMap<>();
                exchange.getRequestHeaders().forEach((name, values) -> headers.put(
                        name.toLowerCase(java.util.Locale.ROOT), values.get(0)));
                Received received = new Received(headers, body);
                String path = exchange.getRequestURI().getPath();
                all.add(received);
                unread.add(received);
                synchronized (byPath) {
                    byPath.merge(path, 1, Integer::sum);
                    byPath.notifyAll();
                }
                if (path.equals("/never")) {
                    try {
                        closing.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    exchange.close();
                    return;
                }
                Integer failingWith = failing;
                Answer answer = failingWith != null ? new Answer(failingWith, 0) : answers.poll();
                answer = answer == null ? new Answer(200, 0) : answer;
                try {
                    Thread.sleep(answer.delayMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                exchange.sendResponseHeaders(answer.status(), -1);
                exchange.close();
            });
            http.start();
        }

        Receiver answer(int status, long delayMillis) {
            answers.add(new Answer(status, delayMillis));
            return this;
        }

        /** Answers every request with {@code status} until {@link #recover()}. */
        Receiver failAll(int status) {
            failing = status;
            return this;
        }

        void recover() {
            failing = null;
        }

        int requests(String path) {
            return byPath.getOrDefault(path, 0);
        }

        void awaitRequests(String path, int count) throws InterruptedException {
            long deadline = System.currentTimeMillis() + 20_000;
            synchronized (byPath) {
                while (requests(path) < count) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0) {
                        throw new AssertionError("the receiver got " + requests(path) + " requests to " + path
                                + ", not " + count);
                    }
                    byPath.wait(left);
                }
            }
        }

        String url(String path) {
            return "http://127.0.0.1:" + http.getAddress().getPort() + path;
        }

        Received next() throws InterruptedException {
            Received received = unread.poll(20, TimeUnit.SECONDS);
            if (received == null) {
                throw new AssertionError("the receiver got nothing");
            }
            return received;
        }

        Received last() {
            return all.get(all.size() - 1);
        }

        int count() {
            return all.size();
        }

        @Override
        public void close() {
            closing.countDown();
            http.stop(0);
        }
    }
}
