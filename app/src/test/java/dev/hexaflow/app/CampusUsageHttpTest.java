package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keyed campus calls counted exactly: many calls at once with one key and with several keys leave each count at
 * exactly the number of calls more, every answer's {@code meta.requests} is a number of its own in that sequence,
 * and a restart continues from there.
 */
class CampusUsageHttpTest {

    private static final int CLIENTS = 16;
    private static final int CALLS_EACH = 60;
    private static final Pattern XML_REQUESTS = Pattern.compile("<requests>(\\d+)</requests>");

    @TempDir
    Path dataDir;

    @Test
    void concurrentCallsWithOneKeyEachGetTheirOwnNumberAndTheCountIsExactAcrossARestart() throws Exception {
        TestServer server = TestServer.start(dataDir);
        String key = server.campusKey();
        try {
            long before = requests(server, key);
            Set<Long> seen = callConcurrently(server, List.of(key));
            long calls = (long) CLIENTS * CALLS_EACH;
            assertThat(seen).as("one number per answer, and no gap")
                    .isEqualTo(LongStream.rangeClosed(before + 1, before + calls).boxed().collect(Collectors.toSet()));
            assertThat(requests(server, key)).isEqualTo(before + calls + 1);
        } finally {
            server.close();
        }
        server = TestServer.start(dataDir);
        try {
            long expected = (long) CLIENTS * CALLS_EACH + 2;
            assertThat(requests(server, key)).as("the count after a clean restart").isEqualTo(expected + 1);
        } finally {
            server.close();
        }
    }

    @Test
    void concurrentCallsWithManyKeysCountEachKeyOnItsOwn() throws Exception {
        try (TestServer server = TestServer.start(dataDir)) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                keys.add(server.issueCampusKey());
            }
            callConcurrently(server, keys);
            // Each client uses the key of its number modulo four: four clients per key.
            long perKey = (long) CLIENTS / keys.size() * CALLS_EACH;
            for (String key : keys) {
                assertThat(requests(server, key)).isEqualTo(perKey + 1);
            }
            // An empty result of tutors does not count, and a banned key answers its count at once.
            server.admin("PUT", "/admin/campus/tutors", "text/csv", "subject,title\n");
            String first = keys.get(0);
            assertThat(json(server.get("/v2/resources/tutors.json?key=" + first)).get("meta").get("requests")
                    .asLong()).isEqualTo(perKey + 1);
            server.admin("POST", "/admin/campus/keys/" + first + "/ban", null, null);
            HttpResponse<String> banned = server.get("/v2/events/holidays.json?key=" + first);
            assertThat(banned.statusCode()).isEqualTo(403);
            assertThat(json(banned).get("meta").get("requests").asLong()).isEqualTo(perKey + 1);
        }
    }

    /** Every client calls json and xml in turn with its key; answers every meta.requests seen. */
    private static Set<Long> callConcurrently(TestServer server, List<String> keys) throws Exception {
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        List<Long> duplicates = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                String key = keys.get(c % keys.size());
                clients.add(pool.submit(() -> {
                    for (int i = 0; i < CALLS_EACH; i++) {
                        long requests = i % 2 == 0
                                ? json(server.get("/v2/events/holidays.json?key=" + key)).get("meta")
                                        .get("requests").asLong()
                                : xmlRequests(server.get("/v2/events/holidays.xml?key=" + key).body());
                        if (!seen.add(requests) && keys.size() == 1) {
                            synchronized (duplicates) {
                                duplicates.add(requests);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : clients) {
                client.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(duplicates).as("numbers answered twice").isEmpty();
        return seen;
    }

    private static long requests(TestServer server, String key) {
        return json(server.get("/v2/events/holidays.json?key=" + key)).get("meta").get("requests").asLong();
    }

    private static long xmlRequests(String body) {
        Matcher matcher = XML_REQUESTS.matcher(body);
        assertThat(matcher.find()).as("meta.requests in " + body.substring(0, Math.min(200, body.length())))
                .isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
