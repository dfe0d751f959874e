package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static dev.hexaflow.app.api.ServiceApi.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.PostgresCluster;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.application.instances.service.InstanceLease;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two packaged jars on one fresh PostgreSQL database and one data directory, driven as a load balancer drives
 * them: a run answered by either instance is read as succeeded on the other; a stop, and a key revoked, sent to one
 * act on the other within a second; and after kill -9 of one, under load, no answered run is lost, while the
 * survivor fails the dead instance's running runs within a lease and serves their streams, which end with the
 * run's failed workflow_finished. The kill
 * comes last: it leaves one instance.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {

    private static final String ADMIN = "cluster-it-admin-token-0123";
    private static final int RUNS = 1000;
    private static final int CLIENTS = 4;
    /** A lease's life and two renewals, with slack for a loaded machine. */
    private static final Duration LEASE_FAILURE_LIMIT = InstanceLease.LASTS.plus(InstanceLease.RENEW_EVERY
            .multipliedBy(2)).plusSeconds(6);
    /**
     * How long a slow run busy-waits: longer than it goes on before its stop or its instance's kill, so that it is
     * still running then, and under the code node's 15 s time limit, so that nothing but the test ends it.
     */
    private static final int SLOW_MILLIS = 12_000;
    private static final HttpClient ADMIN_CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .build();

    @TempDir
    static Path work;

    private static JarServer first;
    private static JarServer second;

    /** A failure carries the end of both instances' logs: what the servers said is most of what there is to know. */
    @RegisterExtension
    static final TestExecutionExceptionHandler LOGS = (context, failure) -> {
        throw withLogs(failure);
    };

    @BeforeAll
    static void startTwoJarsOnOneFreshDatabaseAndOneDataDirectory() throws Exception {
        PostgresCluster cluster = PostgresCluster.get();
        Map<String, String> settings = Map.of(
                "HEXAFLOW_DATABASE_URL", cluster.url(cluster.createDatabase()),
                "HEXAFLOW_DATABASE_USER", PostgresCluster.USER,
                "HEXAFLOW_DATABASE_PASSWORD", PostgresCluster.PASSWORD,
                "HEXAFLOW_ADMIN_TOKEN", ADMIN);
        // Both at once, as an orchestrator starts its replicas: their starts race on the one database.
        CompletableFuture<JarServer> one = starting(log("first"), settings);
        CompletableFuture<JarServer> two = starting(log("second"), settings);
        List<Throwable> failures = new ArrayList<>();
        first = started(one, failures);
        second = started(two, failures);
        if (!failures.isEmpty()) {
            AssertionError failure = withLogs(failures.get(0));
            failures.stream().skip(1).forEach(failure::addSuppressed);
            throw failure;
        }
    }

    @AfterAll
    static void stopThem() throws InterruptedException {
        for (JarServer server : new JarServer[] {first, second}) {
            if (server != null) {
                server.stop();
            }
        }
    }

    @Test
    @Order(1)
    void aThousandBlockingRunsSentToBothInstancesInTurnAreEachReadAsSucceededOnTheOther() throws Exception {
        String key = importApp(first, "echo.yml").get("api_key").asText();
        ServiceApi[] instances = {new ServiceApi(first.baseUrl(), key), new ServiceApi(second.baseUrl(), key)};
        AtomicInteger next = new AtomicInteger();
        AtomicInteger checked = new AtomicInteger();
        Queue<String> wrong = new ConcurrentLinkedQueue<>();

        long began = System.nanoTime();
        inParallel(CLIENTS, Duration.ofSeconds(60), client -> {
            for (int i = next.getAndIncrement(); i < RUNS && wrong.size() < 10; i = next.getAndIncrement()) {
                String query = "run " + i;
                HttpResponse<String> ran = instances[i % 2].postJson("/v1/workflows/run",
                        run(Map.of("query", query), "blocking", "client-" + client));
                if (ran.statusCode() != 200) {
                    wrong.add(query + " answered " + ran.statusCode() + ": " + ran.body());
                    continue;
                }
                String runId = json(ran).get("workflow_run_id").asText();
                HttpResponse<String> read = instances[(i + 1) % 2].get("/v1/workflows/run/" + runId);
                JsonNode detail = json(read);
                if (read.statusCode() != 200 || !"succeeded".equals(detail.path("status").asText())
                        || !("You said: " + query + " (calm)").equals(detail.path("outputs").path("answer")
                                .asText())) {
                    wrong.add(query + " read on the other instance as " + read.statusCode() + ": " + read.body());
                }
                checked.incrementAndGet();
            }
        });
        double seconds = (System.nanoTime() - began) / 1e9;
        System.out.printf("ClusterIT: %d blocking runs, each read back on the other instance, in %.1f s "
                + "(%.0f runs/s)%n", checked.get(), seconds, checked.get() / seconds);

        assertThat(wrong).as("runs not answered 200, or not read as succeeded with their answer on the other "
                + "instance").isEmpty();
        assertThat(checked.get()).isEqualTo(RUNS);
    }

    @Test
    @Order(2)
    void aStopSentToTheInstanceThatDoesNotRunAStreamingTaskEndsItStoppedWithinASecondOrSo() throws Exception {
        String key = importApp(first, "slow.yml").get("api_key").asText();
        ServiceApi onFirst = new ServiceApi(first.baseUrl(), key);
        ServiceApi onSecond = new ServiceApi(second.baseUrl(), key);
        try (EventStream stream = new EventStream(onFirst.postStreaming("/v1/workflows/run",
                run(Map.of("millis", SLOW_MILLIS), "streaming", "ada")))) {
            JsonNode started = stream.until("workflow_started", Duration.ofSeconds(30));
            stream.untilNodeStarted("wait", Duration.ofSeconds(30));

            long asked = System.nanoTime();
            HttpResponse<String> stop = onSecond.postJson("/v1/workflows/tasks/" + started.get("task_id").asText()
                    + "/stop", Map.of("user", "ada"));
            JsonNode finished = stream.until("workflow_finished", Duration.ofSeconds(10));
            double seconds = (System.nanoTime() - asked) / 1e9;
            System.out.printf("ClusterIT: a stop sent to the other instance ended the run in %.3f s%n", seconds);

            assertThat(stop.body()).isEqualTo("{\"result\":\"success\"}");
            assertThat(finished.get("data").get("status").asText()).isEqualTo("stopped");
            // 2 s, not 1: a CI machine running both jars, PostgreSQL and the test on two cores is slow at times.
            assertThat(seconds).as("seconds from the stop to the stream's end").isLessThan(2.0);
            assertThat(json(onSecond.get("/v1/workflows/run/" + started.get("workflow_run_id").asText()))
                    .get("status").asText()).isEqualTo("stopped");
        }
    }

    @Test
    @Order(3)
    void aKeyRevokedOnOneInstanceIsRefusedOnTheOtherWithinASecond() throws Exception {
        JsonNode echo = importApp(first, "echo.yml");
        String key = echo.get("api_key").asText();
        ServiceApi onSecond = new ServiceApi(second.baseUrl(), key);
        assertThat(onSecond.get("/v1/parameters").statusCode()).as("the key known, and held, by the second")
                .isEqualTo(200);

        long asked = System.nanoTime();
        assertThat(admin(first, "DELETE", "/admin/apps/" + echo.get("app_id").asText() + "/keys/" + key, null)
                .statusCode()).isEqualTo(200);
        long refused = await("the revoked key refused by the second instance", Duration.ofSeconds(5), 10,
                () -> onSecond.get("/v1/parameters").statusCode() == 401);
        double seconds = (refused - asked) / 1e9;
        System.out.printf("ClusterIT: a key revoked on one instance was refused on the other after %.3f s%n",
                seconds);

        assertThat(seconds).as("seconds from the revocation to the refusal").isLessThan(1.0);
    }

    @Test
    @Order(4)
    void afterKillNineOfOneInstanceUnderLoadNoAnsweredRunIsLostAndTheSurvivorFailsAndEndsTheDeadOnesRuns()
            throws Exception {
        JarServer victim = first;
        JarServer survivor = second;
        String echoKey = importApp(survivor, "echo.yml").get("api_key").asText();
        String slowKey = importApp(survivor, "slow.yml").get("api_key").asText();
        // Clients of their own: connections the kill cuts are none of the survivor's.
        ServiceApi[] instances = {ServiceApi.ownClient(victim.baseUrl(), echoKey),
                ServiceApi.ownClient(survivor.baseUrl(), echoKey)};
        ServiceApi slowOnVictim = ServiceApi.ownClient(victim.baseUrl(), slowKey);
        ServiceApi slowOnSurvivor = ServiceApi.ownClient(survivor.baseUrl(), slowKey);
        Map<String, String> answered = new ConcurrentHashMap<>();
        AtomicInteger answeredAfterKill = new AtomicInteger();
        AtomicInteger cutByKill = new AtomicInteger();
        Queue<String> wrong = new ConcurrentLinkedQueue<>();
        AtomicBoolean killed = new AtomicBoolean();
        AtomicBoolean going = new AtomicBoolean(true);
        AtomicInteger next = new AtomicInteger();

        ExecutorService burst = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> clients = new ArrayList<>();
        long burstEnds = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            clients.add(burst.submit(() -> {
                for (int i = next.getAndIncrement(); going.get() && i < 20_000 && System.nanoTime() < burstEnds;
                        i = next.getAndIncrement()) {
                    // Once the victim is dead the balancer sends everything to the survivor, as its health
                    // check would after a failed probe.
                    int target = killed.get() ? 1 : i % 2;
                    String query = "burst " + i;
                    try {
                        HttpResponse<String> ran = instances[target].postJson("/v1/workflows/run",
                                run(Map.of("query", query), "blocking", "burst-" + client));
                        if (ran.statusCode() == 200) {
                            answered.put(json(ran).get("workflow_run_id").asText(), query);
                            if (target == 1 && killed.get()) {
                                answeredAfterKill.incrementAndGet();
                            }
                        } else {
                            wrong.add(query + " to instance " + target + " answered " + ran.statusCode() + ": "
                                    + ran.body());
                        }
                    } catch (RuntimeException e) {
                        // A run sent to the victim before the kill was answered, or cut by it: never refused.
                        if (target == 0 && killed.get()) {
                            cutByKill.incrementAndGet();
                        } else {
                            wrong.add(query + " to instance " + target + ": " + e);
                        }
                    }
                }
            }));
        }
        List<EventStream> slowStreams = new ArrayList<>();
        List<String> slowRuns = new ArrayList<>();
        long killedAt;
        try {
            await("a hundred runs of the burst answered", Duration.ofSeconds(30), 10, () -> answered.size() >= 100);
            for (int s = 0; s < 2; s++) {
                EventStream stream = new EventStream(slowOnVictim.postStreaming("/v1/workflows/run",
                        run(Map.of("millis", SLOW_MILLIS), "streaming", "sam")));
                slowStreams.add(stream);
                slowRuns.add(stream.until("workflow_started", Duration.ofSeconds(30)).get("workflow_run_id")
                        .asText());
                stream.untilNodeStarted("wait", Duration.ofSeconds(30));
            }
            int before = answered.size();
            await("a hundred more runs answered while the slow runs go on", Duration.ofSeconds(30), 10,
                    () -> answered.size() >= before + 100);

            killed.set(true);
            killedAt = System.nanoTime();
            victim.kill();
            // A client that reconnects at once, through the load balancer, to the survivor.
            CompletableFuture<Followed> followed = CompletableFuture.supplyAsync(() -> new Followed(slowOnSurvivor
                    .get("/v1/workflows/run/" + slowRuns.get(0) + "/events").body(), System.nanoTime()));
            Thread.sleep(1000);
            going.set(false);
            for (Future<?> client : clients) {
                client.get(30, TimeUnit.SECONDS);
            }

            long failedAt = await("the dead instance's slow runs failed by the survivor",
                    LEASE_FAILURE_LIMIT.plusSeconds(10), 100, () -> slowRuns.stream().allMatch(run ->
                            "failed".equals(json(slowOnSurvivor.get("/v1/workflows/run/" + run)).path("status")
                                    .asText())));
            double seconds = (failedAt - killedAt) / 1e9;
            Followed resumed = followed.get(30, TimeUnit.SECONDS);
            double closed = (resumed.closedAt() - killedAt) / 1e9;
            System.out.printf("ClusterIT: burst of %d answered runs (%d after the kill, on the survivor; %d cut by "
                    + "the kill); the dead instance's runs failed %.1f s after the kill, the stream followed on the "
                    + "survivor closed after %.1f s%n", answered.size(), answeredAfterKill.get(), cutByKill.get(),
                    seconds, closed);

            assertThat(wrong).as("runs refused or unanswered other than by the kill").isEmpty();
            assertThat(answeredAfterKill.get()).as("runs answered by the survivor after the kill").isPositive();
            assertThat(seconds).as("seconds from the kill to the dead instance's runs failed")
                    .isLessThanOrEqualTo(LEASE_FAILURE_LIMIT.toSeconds());
            for (String run : slowRuns) {
                assertThat(json(slowOnSurvivor.get("/v1/workflows/run/" + run)).get("error").asText())
                        .isEqualTo(InstanceLease.REASON);
            }
            assertThat(json(instances[1].get("/v1/workflows/logs?status=running")).get("total").asInt())
                    .as("burst runs left running").isZero();
            assertNoAnsweredRunLost(answered, instances[1]);
            assertReplaysWhatWasKept(resumed.events(), slowRuns.get(0), "the stream followed from the kill on");
            assertThat(closed).as("seconds from the kill to the followed stream's end")
                    .isLessThanOrEqualTo(LEASE_FAILURE_LIMIT.toSeconds());
            assertReplaysWhatWasKept(slowOnSurvivor.get("/v1/workflows/run/" + slowRuns.get(1) + "/events").body(),
                    slowRuns.get(1), "the stream replayed after the failure");
        } finally {
            going.set(false);
            burst.shutdownNow();
            for (EventStream stream : slowStreams) {
                stream.close();
            }
        }
    }

    /** Every run answered 200 is read on the survivor as succeeded, with its answer. */
    private static void assertNoAnsweredRunLost(Map<String, String> answered, ServiceApi survivor) throws Exception {
        List<Map.Entry<String, String>> runs = new ArrayList<>(answered.entrySet());
        AtomicInteger next = new AtomicInteger();
        Queue<String> lost = new ConcurrentLinkedQueue<>();
        inParallel(CLIENTS, Duration.ofSeconds(60), client -> {
            for (int i = next.getAndIncrement(); i < runs.size(); i = next.getAndIncrement()) {
                Map.Entry<String, String> run = runs.get(i);
                HttpResponse<String> read = survivor.get("/v1/workflows/run/" + run.getKey());
                JsonNode detail = json(read);
                if (!"succeeded".equals(detail.path("status").asText()) || !("You said: " + run.getValue()
                        + " (calm)").equals(detail.path("outputs").path("answer").asText())) {
                    lost.add(run.getValue() + " (" + run.getKey() + "): " + read.statusCode() + " " + read.body());
                }
            }
        });
        assertThat(lost).as("answered runs not read as succeeded on the survivor").isEmpty();
    }

    /** A stream read on the survivor to its end, and when it ended. */
    private record Followed(String events, long closedAt) {
    }

    /**
     * The stream is the events the dead instance kept, numbered from 1, up to the code node it died in, then the
     * run's workflow_finished, failed with the lease's reason, made from its row by the survivor (its dead instance
     * kept none), numbered after them.
     */
    private static void assertReplaysWhatWasKept(String stream, String runId, String which) {
        List<String> ids = stream.lines().filter(line -> line.startsWith("id: ")).toList();
        List<JsonNode> events = stream.lines().filter(line -> line.startsWith("data: "))
                .map(line -> TestServer.json(line.substring(6))).toList();
        assertThat(events).as(which + ": " + stream).isNotEmpty();
        assertThat(ids).as(which).containsExactlyElementsOf(IntStream.rangeClosed(1, events.size())
                .mapToObj(n -> "id: " + n).toList());
        assertThat(events.get(0).get("event").asText()).as(which).isEqualTo("workflow_started");
        assertThat(events.get(0).get("workflow_run_id").asText()).as(which).isEqualTo(runId);
        assertThat(events).as(which + ": " + stream).anySatisfy(event -> {
            assertThat(event.get("event").asText()).isEqualTo("node_started");
            assertThat(event.get("data").get("node_id").asText()).isEqualTo("wait");
        });
        JsonNode end = events.get(events.size() - 1);
        assertThat(end.get("event").asText()).as(which + ": " + stream).isEqualTo("workflow_finished");
        assertThat(end.get("data").get("status").asText()).as(which).isEqualTo("failed");
        assertThat(end.get("data").get("error").asText()).as(which).isEqualTo(InstanceLease.REASON);
    }

    private static Path log(String instance) {
        return work.resolve(instance + ".log");
    }

    private static CompletableFuture<JarServer> starting(Path log, Map<String, String> settings) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return JarServer.start(work.resolve("data"), log, settings);
            } catch (IOException e) {
                throw new AssertionError("the jar could not be started: " + e, e);
            }
        }, task -> new Thread(task, "start-" + log.getFileName()).start());
    }

    /** The started server, or null with the reason it did not start added to {@code failures}. */
    private static JarServer started(CompletableFuture<JarServer> start, List<Throwable> failures)
            throws InterruptedException {
        try {
            return start.get(JarServer.START_LIMIT.toSeconds() + 30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failures.add(e.getCause());
        } catch (TimeoutException e) {
            failures.add(e);
        }
        return null;
    }

    /** The failure with the end of each instance's log. */
    private static AssertionError withLogs(Throwable failure) throws IOException {
        return new AssertionError(failure.getMessage() + "\n----- the first instance's log, its end -----\n"
                + JarServer.tail(log("first")) + "\n----- the second instance's log, its end -----\n"
                + JarServer.tail(log("second")), failure);
    }

    private static JsonNode importApp(JarServer server, String name) throws IOException {
        String yaml;
        try (InputStream in = ClusterIT.class.getResourceAsStream("/apps/" + name)) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        HttpResponse<String> imported = admin(server, "POST", "/admin/apps", yaml);
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(201);
        return json(imported);
    }

    private static HttpResponse<String> admin(JarServer server, String method, String path, String yaml) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + ADMIN)
                .method(method, yaml == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(yaml));
        if (yaml != null) {
            request.header("Content-Type", "application/yaml");
        }
        return ServiceApi.bounded(ADMIN_CLIENT, request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Runs {@code task} on this many threads at once, each given its number; fails when they take over the limit. */
    private static void inParallel(int threads, Duration limit, IntConsumer task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                running.add(pool.submit(() -> task.accept(thread)));
            }
            long deadline = System.nanoTime() + limit.toNanos();
            for (Future<?> one : running) {
                one.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** When {@code condition} first held, asked every {@code everyMillis}; fails when it did not within the limit. */
    private static long await(String what, Duration limit, long everyMillis, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return System.nanoTime();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + limit);
            }
            Thread.sleep(everyMillis);
        }
    }

    /**
     * A run's server-sent events read on a thread of their own, so that every wait on them is bounded: a stream that
     * stalls fails the test instead of holding it.
     */
    private static final class EventStream implements AutoCloseable {

        private static final String END = new String("end of stream");

        private final InputStream body;
        private final BlockingQueue<String> data = new LinkedBlockingQueue<>();

        EventStream(HttpResponse<InputStream> response) {
            assertThat(response.statusCode()).isEqualTo(200);
            this.body = response.body();
            Thread reader = new Thread(() -> {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        if (line.startsWith("data: ")) {
                            data.add(line.substring(6));
                        }
                    }
                } catch (IOException e) {
                    // Cut: the server was killed, or the test closed the stream.
                } finally {
                    data.add(END);
                }
            }, "event-stream");
            reader.setDaemon(true);
            reader.start();
        }

        /** The next event of this name, the ones before it passed over. */
        JsonNode until(String event, Duration limit) throws InterruptedException {
            return until(parsed -> event.equals(parsed.path("event").asText()), "a " + event + " event", limit);
        }

        /** The next node_started of this node, the events before it passed over. */
        JsonNode untilNodeStarted(String nodeId, Duration limit) throws InterruptedException {
            return until(parsed -> "node_started".equals(parsed.path("event").asText())
                    && nodeId.equals(parsed.path("data").path("node_id").asText()), "node " + nodeId + " started",
                    limit);
        }

        private JsonNode until(Predicate<JsonNode> wanted, String what, Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                String next = data.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (next == null) {
                    throw new AssertionError("not " + what + " within " + limit);
                }
                if (next == END) {
                    throw new AssertionError("the stream ended before " + what);
                }
                JsonNode parsed = TestServer.json(next);
                if (wanted.test(parsed)) {
                    return parsed;
                }
            }
        }

        @Override
        public void close() throws IOException {
            body.close();
        }
    }
}
