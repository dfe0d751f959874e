package dev.hexaflow.app;

import static dev.hexaflow.app.api.ServiceApi.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.api.ServiceApi.Part;
import dev.hexaflow.app.api.ServiceApi;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.domain.app.PageUploadQuota;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A web page's visitors upload within a quota: so many files an hour each, so many megabytes a day for all the
 * visitors of one app's page (a visitor can ask for a new web user at will); past either, Dify's 429 and nothing is
 * kept. The app's key, its operator's, is not bound by it.
 */
class PageUploadQuotaHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;
    String site;
    ServiceApi key;

    @BeforeEach
    void start() {
        Configuration config = TestServer.config(dataDir);
        server = TestServer.start(config.withService(config.service().withPageUploads(new PageUploadQuota(3, 1))));
        var imported = server.importApp("echo.yml");
        site = imported.get("site_code").asText();
        key = server.api(imported.get("api_key").asText());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> upload(ServiceApi api, String user, int bytes) {
        byte[] content = new byte[bytes];
        Arrays.fill(content, (byte) 'a');
        return api.multipart("/v1/files/upload", List.of(Part.field("user", user), Part.file("note.txt",
                "text/plain", content)));
    }

    private static void assertOverQuota(HttpResponse<String> answer, String saying) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(429);
        assertThat(json(answer).get("code").asText()).isEqualTo("too_many_requests");
        assertThat(json(answer).get("message").asText()).contains(saying);
    }

    @Test
    void aVisitorUploadsSoManyFilesAnHourAndAnotherVisitorIsNotHeldByIt() {
        TestServer.PageToken first = server.pageToken(site, null);
        ServiceApi page = server.api(first.token());
        for (int i = 0; i < 3; i++) {
            assertThat(upload(page, first.user(), 10).statusCode()).isEqualTo(201);
        }

        assertOverQuota(upload(page, first.user(), 10), "3 files an hour");

        TestServer.PageToken second = server.pageToken(site, null);
        assertThat(upload(server.api(second.token()), second.user(), 10).statusCode()).isEqualTo(201);
        for (int i = 0; i < 5; i++) {
            assertThat(upload(key, "an-integration", 10).statusCode()).as("an app's key is not bound")
                    .isEqualTo(201);
        }
    }

    @Test
    void uploadsSentAtOnceAreCountedOneAfterAnother() throws Exception {
        TestServer.PageToken visitor = server.pageToken(site, null);
        ServiceApi page = server.api(visitor.token());
        java.util.List<java.util.concurrent.CompletableFuture<Integer>> sent = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            sent.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> upload(page, visitor.user(), 10)
                    .statusCode()));
        }
        java.util.List<Integer> statuses = new java.util.ArrayList<>();
        for (var status : sent) {
            statuses.add(status.get(30, java.util.concurrent.TimeUnit.SECONDS));
        }

        assertThat(statuses).filteredOn(status -> status == 201).hasSize(3);
        assertThat(statuses).filteredOn(status -> status == 429).hasSize(7);
    }

    @Test
    void theVisitorsOfOnePageUploadSoManyMegabytesADayWhateverWebUserTheyAsk() {
        TestServer.PageToken first = server.pageToken(site, null);
        assertThat(upload(server.api(first.token()), first.user(), 600_000).statusCode()).isEqualTo(201);
        TestServer.PageToken second = server.pageToken(site, null);

        assertOverQuota(upload(server.api(second.token()), second.user(), 600_000), "1 MB of files a day");

        assertThat(upload(server.api(second.token()), second.user(), 100_000).statusCode()).isEqualTo(201);
        assertThat(upload(key, "an-integration", 2_000_000).statusCode()).as("an app's key is not bound")
                .isEqualTo(201);
    }
}
