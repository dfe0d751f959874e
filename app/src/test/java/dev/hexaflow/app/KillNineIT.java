package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar under runs and uploads, killed with SIGKILL at random moments, restarted: every run a client
 * was answered about is kept as answered, nothing stays running, uploads and blobs match one for one, and no key,
 * token or uploaded content reaches the log.
 */
class KillNineIT {

    private static final String ADMIN = "kill-nine-admin-token-0123";
    private static final String SECRET_CONTENT = "SECRET-UPLOAD-CONTENT-7f3a";
    /** One client's keyed calls in a flush interval and a commit, with room for a slow machine. */
    private static final long LOST_COUNTS_AT_MOST = 200;

    @TempDir
    Path work;

    @Test
    void answeredRunsAndUploadsSurviveKillNineAndNothingIsLeftRunningOrOrphaned() throws Exception {
        Path data = work.resolve("data");
        Path log = work.resolve("server.log");
        Map<String, String> answered = new ConcurrentHashMap<>();
        Set<String> uploads = ConcurrentHashMap.newKeySet();
        Random random = new Random(42);
        String key = null;
        String campusKey = null;
        AtomicLong highestCount = new AtomicLong();
        for (int round = 0; round < 4; round++) {
            JarServer server = JarServer.start(data, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
            if (key == null) {
                key = server.demoKey();
                campusKey = server.campusKey();
            }
            ServiceApi api = ServiceApi.ownClient(server.baseUrl(), key);
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 6; c++) {
                int client = c;
                Thread thread = new Thread(() -> drive(api, client, running, answered, uploads));
                thread.start();
                clients.add(thread);
            }
            Thread campus = new Thread(countUsage(server.baseUrl(), campusKey, running, highestCount));
            campus.start();
            clients.add(campus);
            // Each round is killed once it has answered a run and an upload (a loaded machine may take seconds
            // for the first), then at a random moment after.
            awaitAnswers(answered, uploads, answered.size() + 1, uploads.size() + 1);
            Thread.sleep(200 + random.nextInt(1500));
            server.kill();
            running.set(false);
            for (Thread thread : clients) {
                thread.join(20_000);
            }
        }
        JarServer last = JarServer.start(data, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        ServiceApi api = ServiceApi.ownClient(last.baseUrl(), key);
        try {
            assertThat(answered).as("some runs were answered before the kills").isNotEmpty();
            assertThat(uploads).as("some uploads were answered before the kills").isNotEmpty();
            for (Map.Entry<String, String> run : answered.entrySet()) {
                JsonNode detail = ServiceApi.json(api.get("/v1/workflows/run/" + run.getKey()));
                assertThat(detail.get("status").asText()).as("run " + run.getKey()).isEqualTo(run.getValue());
            }
            // An answered run's events were kept before its answer: its replay ends with its end, numbered in order.
            for (String run : answered.keySet().stream().limit(20).toList()) {
                String replay = api.get("/v1/workflows/run/" + run + "/events").body();
                List<String> ids = replay.lines().filter(line -> line.startsWith("id: ")).toList();
                assertThat(ids).as("run " + run + "'s events").isNotEmpty();
                for (int i = 0; i < ids.size(); i++) {
                    assertThat(ids.get(i)).isEqualTo("id: " + (i + 1));
                }
                String end = replay.lines().filter(line -> line.startsWith("data: ")).reduce((a, b) -> b).orElse("");
                assertThat(end).as("run " + run + "'s last event").contains("\"event\":\"workflow_finished\"");
            }
            assertThat(ServiceApi.json(api.get("/v1/workflows/logs?status=running")).get("total").asInt())
                    .as("no run stays running after a restart").isZero();
            assertThat(highestCount.get()).as("some keyed campus calls were answered").isPositive();
            long kept = ServiceApi.json(ServiceApi.ownClient(last.baseUrl(), null).get("/v2/events/holidays.json?key="
                    + campusKey)).get("meta").get("requests").asLong() - 1;
            // Counts are committed every 10 ms after their answers: a kill loses at most the last interval's,
            // a few dozen calls of the one client that counts; never more than it was answered, but the one call
            // the kill cut off.
            assertThat(highestCount.get() - kept).as("usage counts answered but not kept after kill -9")
                    .isLessThanOrEqualTo(LOST_COUNTS_AT_MOST);
            assertThat(kept).as("counts kept that no client was answered").isLessThanOrEqualTo(
                    highestCount.get() + 4);
        } finally {
            last.stop();
        }
        assertUploadsAndBlobsMatch(data, uploads);
        String stored = new String(Files.readAllBytes(data.resolve("hexaflow.mv.db")), StandardCharsets.ISO_8859_1);
        assertThat(stored).as("keys are kept only as hashes").doesNotContain(key);
        String logged = Files.readString(log);
        assertThat(logged).doesNotContain(key).doesNotContain(ADMIN).doesNotContain(SECRET_CONTENT);
    }

    /** Waits until this many runs and uploads were answered; fails after a minute. */
    private static void awaitAnswers(Map<String, String> answered, Set<String> uploads, int runs, int files)
            throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (answered.size() < runs || uploads.size() < files) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no run or no upload answered within a minute of the start");
            }
            Thread.sleep(20);
        }
    }

    private static void drive(ServiceApi api, int client, AtomicBoolean running, Map<String, String> answered,
            Set<String> uploads) {
        int n = 0;
        while (running.get()) {
            try {
                if (n++ % 3 == 2) {
                    HttpResponse<String> response = api.multipart("/v1/files/upload", List.of(
                            ServiceApi.Part.field("user", "client-" + client),
                            ServiceApi.Part.file("note-" + n + ".txt", "text/plain",
                                    (SECRET_CONTENT + " ".repeat(64 * 1024)).getBytes(StandardCharsets.UTF_8))));
                    if (response.statusCode() == 201) {
                        uploads.add(ServiceApi.json(response).get("id").asText());
                    }
                } else {
                    HttpResponse<String> response = api.postJson("/v1/workflows/run",
                            ServiceApi.run(Map.of("year", "2026"), "blocking", "client-" + client));
                    if (response.statusCode() == 200) {
                        JsonNode body = ServiceApi.json(response);
                        answered.put(body.get("workflow_run_id").asText(), body.get("data").get("status").asText());
                    }
                }
            } catch (RuntimeException | AssertionError killed) {
                return;
            }
        }
    }

    /** Keyed holiday calls one after another, keeping the highest usage count answered. */
    private static Runnable countUsage(String baseUrl, String campusKey, AtomicBoolean running, AtomicLong highest) {
        ServiceApi client = ServiceApi.ownClient(baseUrl, null);
        return () -> {
            while (running.get()) {
                try {
                    HttpResponse<String> response = client.get("/v2/events/holidays.json?key=" + campusKey);
                    if (response.statusCode() == 200) {
                        highest.accumulateAndGet(ServiceApi.json(response).get("meta").get("requests").asLong(),
                                Math::max);
                    }
                } catch (RuntimeException | AssertionError killed) {
                    return;
                }
            }
        };
    }

    /** Every upload answered 201 has its record; every record has its blob; every blob has its record. */
    private static void assertUploadsAndBlobsMatch(Path data, Set<String> answered) throws Exception {
        Set<String> records = new HashSet<>();
        Set<String> recordBlobs = new HashSet<>();
        try (Connection db = DriverManager.getConnection("jdbc:h2:file:" + data.resolve("hexaflow"), "sa", "");
                ResultSet rows = db.createStatement().executeQuery("SELECT id, blob_key FROM upload_file")) {
            while (rows.next()) {
                records.add(rows.getString(1));
                recordBlobs.add(rows.getString(2));
            }
        }
        Set<String> blobs = new HashSet<>();
        try (Stream<Path> files = Files.list(data.resolve("files"))) {
            files.forEach(file -> blobs.add(file.getFileName().toString()));
        }
        assertThat(records).containsAll(answered);
        assertThat(blobs).as("every blob has its record and every record its blob").isEqualTo(recordBlobs);
    }

}
