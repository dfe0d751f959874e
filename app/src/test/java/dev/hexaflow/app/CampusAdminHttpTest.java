package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.app.config.Configuration;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Administration of the feed, usage counting, and the server's life over its data directory. */
class CampusAdminHttpTest {

    @TempDir
    Path dataDir;
    TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(dataDir);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @CsvSource(nullValues = "none", value = {"POST, /admin/campus/keys, none", "POST, /admin/campus/keys, wrong-token",
            "POST, /admin/campus/keys/abc/ban, none", "PUT, /admin/campus/tutors, none",
            "PUT, /admin/campus/tutors, wrong-token"})
    void adminOperationsWithoutTheAdminTokenAre401AndChangeNothing(String method, String path, String token) {
        HttpResponse<String> response = server.send(method, path, "text/csv", "subject\nX\n", token);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                value -> assertThat(value).startsWith("Bearer"));
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("unauthorized");
        assertThat(body.get("status").asInt()).isEqualTo(401);
        assertThat(tutors(server.campusKey())).hasSizeGreaterThan(1);
    }

    @Test
    void anIssuedKeyIs201AndOpensTheFeed() {
        HttpResponse<String> response = server.admin("POST", "/admin/campus/keys", null, null);

        assertThat(response.statusCode()).isEqualTo(201);
        String key = json(response).get("key").asText();
        assertThat(key).matches("[a-z0-9]{32}");
        assertThat(server.get("/v2/resources/tutors.json?key=" + key).statusCode()).isEqualTo(200);
    }

    @Test
    void aBannedKeyIs403WithItsUsageOnEveryMethod() {
        String key = server.issueCampusKey();
        server.get("/v2/resources/tutors.json?key=" + key);
        server.get("/v2/resources/tutors.json?key=" + key);

        HttpResponse<String> ban = server.admin("POST", "/admin/campus/keys/" + key + "/ban", null, null);

        assertThat(ban.statusCode()).isEqualTo(200);
        for (String path : new String[] {"/v2/resources/tutors.json", "/v2/resources/printers.xml",
                "/v2/events/holidays.json"}) {
            HttpResponse<String> refused = server.get(path + "?key=" + key);
            assertThat(refused.statusCode()).as(path).isEqualTo(403);
        }
        JsonNode meta = json(server.get("/v2/events/holidays.json?key=" + key)).get("meta");
        assertThat(meta.get("message").asText()).isEqualTo("The provided API key has been banned");
        assertThat(meta.get("requests").asLong()).isEqualTo(2);
    }

    @Test
    void banningAKeyThatWasNeverIssuedIs404() {
        HttpResponse<String> response = server.admin("POST", "/admin/campus/keys/nope/ban", null, null);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response).get("code").asText()).isEqualTo("not_found");
    }

    @Test
    void anEmptyTutorsResultIs204InMetaOverHttp200AndDoesNotCountAsUsage() {
        String key = server.issueCampusKey();
        assertThat(server.admin("PUT", "/admin/campus/tutors", "text/csv", "subject,title\n").statusCode())
                .isEqualTo(200);

        HttpResponse<String> response = server.get("/v2/resources/tutors.json?key=" + key);
        server.get("/v2/resources/tutors.json?key=" + key);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.get("meta").get("status").asInt()).isEqualTo(204);
        assertThat(body.get("meta").get("message").asText()).isEqualTo("No data returned");
        assertThat(body.get("data").isArray()).isTrue();
        assertThat(body.get("data")).isEmpty();
        assertThat(json(server.get("/v2/resources/tutors.json?key=" + key)).get("meta").get("requests").asLong())
                .isZero();
        assertThat(json(server.get("/v2/resources/printers.json?key=" + key)).get("meta").get("requests").asLong())
                .isEqualTo(1);
    }

    @Test
    void aCsvBodyReplacesTheDataSet() {
        HttpResponse<String> response = server.admin("PUT", "/admin/campus/holidays", "text/csv",
                "date,holiday\n2027-01-01,New Year's Day\n2027-07-01,Canada Day\n");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("records").asInt()).isEqualTo(2);
        JsonNode data = json(server.get("/v2/events/holidays.json")).get("data");
        assertThat(data).hasSize(2);
        assertThat(data.get(1).get("name").asText()).isEqualTo("Canada Day");
        assertThat(data.get(1).get("date").asText()).isEqualTo("2027-07-01");
    }

    @Test
    void aJsonBodyReplacesTheDataSetWithItsNulls() {
        HttpResponse<String> response = server.admin("PUT", "/admin/campus/printers", "application/json",
                "[{\"printer\": \"lab-1\", \"room\": \"E5 2001\", \"faculty\": null}]");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode printer = json(server.get("/v2/resources/printers.json?key=" + server.campusKey()))
                .get("data").get(0);
        assertThat(printer.get("printer").asText()).isEqualTo("lab-1");
        assertThat(printer.get("faculty").isNull()).isTrue();
        assertThat(printer.get("ad").isNull()).isTrue();
    }

    @Test
    void aBadFileIsRefusedNamingLineAndFieldAndTheOldDataStays() {
        String before = server.get("/v2/events/holidays.json").body().replaceAll("\"timestamp\":\\d+", "");

        HttpResponse<String> response = server.admin("PUT", "/admin/campus/holidays", "text/csv",
                "date,holiday\n2027-01-01,New Year's Day\n2027-13-01,Nonsense\n");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = json(response);
        assertThat(body.get("code").asText()).isEqualTo("invalid_campus_data");
        assertThat(body.get("status").asInt()).isEqualTo(400);
        assertThat(body.get("line").asInt()).isEqualTo(3);
        assertThat(body.get("field").asText()).isEqualTo("date");
        assertThat(body.get("message").asText()).contains("line 3", "field date", "2027-13-01");
        String after = server.get("/v2/events/holidays.json").body().replaceAll("\"timestamp\":\\d+", "");
        assertThat(after).isEqualTo(before);
    }

    @Test
    void anUnknownDataSetIs404AndAnUnknownMediaTypeIs415() {
        assertThat(server.admin("PUT", "/admin/campus/courses", "text/csv", "a\n1\n").statusCode()).isEqualTo(404);
        HttpResponse<String> xml = server.admin("PUT", "/admin/campus/tutors", "application/xml", "<a/>");
        assertThat(xml.statusCode()).isEqualTo(415);
        assertThat(json(xml).get("code").asText()).isEqualTo("unsupported_media_type");
    }

    @Test
    void usageCountsSurviveARestart() {
        String key = server.campusKey();
        server.get("/v2/resources/tutors.json?key=" + key);
        server.get("/v2/resources/tutors.json?key=" + key);
        server.close();
        server = null;

        server = TestServer.start(dataDir);

        assertThat(json(server.get("/v2/resources/tutors.json?key=" + key)).get("meta").get("requests").asLong())
                .isEqualTo(3);
        assertThat(server.hexaflow.report().newCampusKey()).as("only a first start makes a key").isEmpty();
    }

    @Test
    void aDataDirectoryMadeByACommandStillGetsTheFirstStartsCampusDataKeyAndDemos(@TempDir Path made) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"knowledge", "create", "Handbook", "--data-dir", made.toString()},
                Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(),
                        true, StandardCharsets.UTF_8));
        assertThat(exit).as(out.toString(StandardCharsets.UTF_8)).isZero();

        try (TestServer first = TestServer.start(made)) {
            assertThat(first.hexaflow.report().newCampusKey()).as("the first server start issues a key").isPresent();
            assertThat(first.hexaflow.report().demoAppKey()).as("and imports the demos").isPresent();
            assertThat(json(first.get("/v2/events/holidays.json?key=" + first.hexaflow.report().newCampusKey()
                    .orElseThrow())).get("data")).as("and loads the bundled holidays").hasSize(205);
        }
        try (TestServer second = TestServer.start(made)) {
            assertThat(second.hexaflow.report().newCampusKey()).as("only the first server start").isEmpty();
            assertThat(second.hexaflow.report().demoAppKey()).isEmpty();
        }
    }

    @Test
    void aDatabaseAServerStartedOnBeforeTheFirstStartWasKeptIsNotTakenForANewOne(@TempDir Path older)
            throws Exception {
        String url = "jdbc:h2:file:" + older.toAbsolutePath().resolve("hexaflow");
        org.h2.jdbcx.JdbcConnectionPool pool = org.h2.jdbcx.JdbcConnectionPool.create(url, "sa", "");
        try {
            org.flywaydb.core.Flyway.configure().dataSource(pool).locations(H2Database.MIGRATIONS).target("11")
                    .load().migrate();
            try (var db = pool.getConnection(); var statement = db.createStatement()) {
                statement.execute("INSERT INTO campus_key (key_hash, requests) VALUES ('"
                        + dev.hexaflow.domain.secret.SecretHash.of("an-older-servers-key").hex() + "', 3)");
            }
        } finally {
            pool.dispose();
        }

        try (TestServer upgraded = TestServer.start(older)) {
            assertThat(upgraded.hexaflow.report().newCampusKey()).isEmpty();
            assertThat(upgraded.hexaflow.report().demoAppKey()).as("no demo imported again").isEmpty();
        }
    }

    @Test
    void aSecondServerOnTheSameDataDirectoryIsRefusedWithAClearMessage() {
        assertThatThrownBy(() -> TestServer.start(dataDir))
                .isInstanceOf(StartupException.class)
                .hasMessageContaining("in use by another Hexaflow process");

        assertThat(server.get("/health").statusCode()).as("the first server goes on").isEqualTo(200);
    }

    @Test
    void aTakenPortIsRefusedWithAClearMessageAndReleasesTheDataDirectory(@TempDir Path other) {
        Configuration samePort = TestServer.config(other).withPort(server.hexaflow.port());

        assertThatThrownBy(() -> Hexaflow.start(samePort))
                .isInstanceOf(StartupException.class)
                .hasMessageContaining("Cannot listen on");

        try (TestServer next = TestServer.start(other)) {
            assertThat(next.hexaflow.report().newCampusKey()).as("a first start that failed is made again")
                    .isPresent();
            assertThat(next.hexaflow.report().demoAppKey()).isPresent();
        }
    }

    @Test
    void theFirstStartMakesAnOwnerOnlyAdminTokenThatWorksAndIsNotShownAgain(@TempDir Path fresh) throws Exception {
        Configuration config = TestServer.config(fresh).withAdminToken(null);
        String token;
        try (Hexaflow first = Hexaflow.start(config)) {
            token = first.report().newAdminToken().orElseThrow();
            assertThat(Files.readString(fresh.resolve("admin-token")).trim()).isEqualTo(token);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.resolve("admin-token"))))
                    .isEqualTo("rw-------");
        }
        try (Hexaflow second = Hexaflow.start(config)) {
            assertThat(second.report().newAdminToken()).isEmpty();
            TestServer.ClientOnly client = new TestServer.ClientOnly(second.baseUrl());
            assertThat(client.send("POST", "/admin/campus/keys", token).statusCode()).isEqualTo(201);
            assertThat(client.send("POST", "/admin/campus/keys", TestServer.ADMIN_TOKEN).statusCode()).isEqualTo(401);
        }
    }

    @Test
    void theStartBlockPrintsACurlLineThatAnswersHolidays() {
        StartReport report = server.hexaflow.report();
        String command = report.tryCommand();

        assertThat(command).startsWith("curl '" + server.hexaflow.baseUrl() + "/v2/events/holidays.json?key=");
        String url = command.substring("curl '".length(), command.length() - 1);
        String path = url.substring(server.hexaflow.baseUrl().length());
        JsonNode body = json(server.get(path));
        assertThat(body.get("meta").get("status").asInt()).isEqualTo(200);
        assertThat(body.get("data")).hasSize(205);
        assertThat(report.newAdminToken()).as("a configured admin token is not printed").isEqualTo(Optional.empty());
    }

    private JsonNode tutors(String key) {
        return json(server.get("/v2/resources/tutors.json?key=" + key)).get("data");
    }
}
