package dev.hexaflow.app;

import static dev.hexaflow.app.TestServer.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's commands, carried out for real on a data directory. */
class MainTest {

    @TempDir
    Path dataDir;

    private record Outcome(int exit, String out, String err) {
    }

    private static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpExplainsEveryCommandAndFlag() {
        Outcome help = run("--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("serve", "campus keys create", "campus keys ban KEY",
                "campus import DATASET FILE", "--port", "--host", "--data-dir", "HEXAFLOW_ADMIN_TOKEN",
                "HEXAFLOW_PORT", "HEXAFLOW_HOST", "HEXAFLOW_DATA_DIR");
    }

    @Test
    void versionNamesTheBuildAsMavenWroteIt() {
        Outcome version = run("--version");

        assertThat(version.exit()).isZero();
        assertThat(version.out()).matches("hexaflow \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n");
    }

    @Test
    void aWrongFlagIsOneLineOnStandardErrorWithExitCode2() {
        Outcome wrong = run("--colour", "red");

        assertThat(wrong.exit()).isEqualTo(2);
        assertThat(wrong.out()).isEmpty();
        assertThat(wrong.err().strip()).doesNotContain("\n").contains("unknown flag --colour", "--help");
    }

    @Test
    void aKeyMadeOnTheCommandLineOpensTheFeedOfTheServerStartedLater() {
        Outcome created = run("campus", "keys", "create", "--data-dir", dataDir.toString());

        assertThat(created.exit()).isZero();
        String key = created.out().strip();
        assertThat(key).matches("[a-z0-9]{32}");
        try (TestServer server = TestServer.start(dataDir)) {
            assertThat(server.get("/v2/resources/tutors.json?key=" + key).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aKeyBannedOnTheCommandLineIsRefused() {
        String key = run("campus", "keys", "create", "--data-dir", dataDir.toString()).out().strip();

        Outcome banned = run("campus", "keys", "ban", key, "--data-dir", dataDir.toString());
        Outcome unknown = run("campus", "keys", "ban", "nope", "--data-dir", dataDir.toString());

        assertThat(banned.exit()).isZero();
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("no campus key");
        try (TestServer server = TestServer.start(dataDir)) {
            assertThat(server.get("/v2/resources/tutors.json?key=" + key).statusCode()).isEqualTo(403);
        }
    }

    @Test
    void anImportedFileReplacesTheDataSetAndABadOneChangesNothing() throws Exception {
        Path good = Files.writeString(dataDir.resolveSibling(dataDir.getFileName() + "-tutors.json"),
                "[{\"subject\": \"CS\", \"catalog_number\": \"241\", \"tutors_count\": 2}]");
        Path bad = Files.writeString(dataDir.resolveSibling(dataDir.getFileName() + "-tutors.csv"),
                "subject,tutors_count\nCS,2\nMATH,lots\n");

        Outcome imported = run("campus", "import", "tutors", good.toString(), "--data-dir", dataDir.toString());
        Outcome refused = run("campus", "import", "tutors", bad.toString(), "--data-dir", dataDir.toString());

        assertThat(imported.exit()).isZero();
        assertThat(imported.out()).contains("1 tutors imported");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("line 3", "field tutors_count", "nothing was changed");
        try (TestServer server = TestServer.start(dataDir)) {
            var data = json(server.get("/v2/resources/tutors.json?key=" + server.issueCampusKey())).get("data");
            assertThat(data).hasSize(1);
            assertThat(data.get(0).get("catalog_number").asText()).isEqualTo("241");
        }
    }

    @Test
    void importingAnUnknownDataSetOrAMissingFileIsAUsageError() {
        assertThat(run("campus", "import", "courses", "x.csv", "--data-dir", dataDir.toString()).exit())
                .isEqualTo(2);
        Outcome missing = run("campus", "import", "tutors", "/no/such/file.csv", "--data-dir", dataDir.toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("cannot read");
    }

    @Test
    void appsAreImportedListedAndGivenKeysFromTheCommandLine() throws Exception {
        Path dsl = echoFile();

        Outcome imported = run("apps", "import", dsl.toString(), "--data-dir", dataDir.toString());
        String appId = field(imported, "app_id");
        Outcome listed = run("apps", "list", "--data-dir", dataDir.toString());
        Outcome key = run("apps", "keys", "create", appId, "--data-dir", dataDir.toString());
        Outcome unknown = run("apps", "keys", "create", "no-such-app", "--data-dir", dataDir.toString());
        Outcome broken = run("apps", "import", "/etc/hostname", "--data-dir", dataDir.toString());

        assertThat(imported.exit()).isZero();
        assertThat(imported.out()).contains("workflow_id", "api_key      app-");
        assertThat(listed.out()).contains(appId).contains("Echo");
        assertThat(key.exit()).isZero();
        assertThat(key.out().strip()).matches("app-[A-Za-z0-9]{24}");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(broken.exit()).isEqualTo(2);
        assertThat(broken.err()).contains("not a Dify app DSL");
        try (TestServer server = TestServer.start(dataDir)) {
            assertThat(server.api(key.out().strip()).get("/v1/info").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void anAppsWebPageIsListedWithItsCodeAndTurnedOffAndOnFromTheCommandLine() throws Exception {
        Path dsl = echoFile();
        Outcome imported = run("apps", "import", dsl.toString(), "--data-dir", dataDir.toString());
        String appId = field(imported, "app_id");
        String code = field(imported, "site_code");

        Outcome off = run("apps", "site", appId, "off", "--data-dir", dataDir.toString());
        Outcome listedOff = run("apps", "list", "--data-dir", dataDir.toString());
        try (TestServer server = TestServer.start(dataDir)) {
            assertThat(server.get("/apps/" + code).statusCode()).isEqualTo(404);
        }
        Outcome on = run("apps", "site", appId, "on", "--data-dir", dataDir.toString());
        Outcome unknown = run("apps", "site", "no-such-app", "on", "--data-dir", dataDir.toString());
        Outcome badWord = run("apps", "site", appId, "maybe", "--data-dir", dataDir.toString());

        assertThat(code).matches("[a-z0-9]{16}");
        assertThat(off.out()).contains("/apps/" + code + " is off");
        assertThat(listedOff.out()).containsPattern("SITE CODE\\s+PAGE")
                .containsPattern(code + "\\s+off\\s+Echo");
        assertThat(on.exit()).isZero();
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(badWord.exit()).isEqualTo(2);
        try (TestServer server = TestServer.start(dataDir)) {
            assertThat(server.get("/apps/" + code).statusCode()).isEqualTo(200);
        }
    }

    /** The test app echo.yml as a file beside the data dir, as an operator would have it. */
    private Path echoFile() throws java.io.IOException {
        return Files.writeString(dataDir.resolveSibling(dataDir.getFileName() + "-echo.yml"),
                new String(MainTest.class.getResourceAsStream("/apps/echo.yml").readAllBytes(),
                        StandardCharsets.UTF_8));
    }

    private static String field(Outcome outcome, String name) {
        return outcome.out().lines().filter(l -> l.startsWith(name + " ")).findFirst().orElseThrow()
                .split("\\s+")[1];
    }

    @Test
    void aDatabaseThatCannotBeOpenedFailsTheStartInOneLineAndLeavesThePortFree() throws Exception {
        Files.write(dataDir.resolve("hexaflow.mv.db"), "this is not an H2 database".repeat(1000)
                .getBytes(StandardCharsets.UTF_8));
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }

        Outcome refused = run("serve", "--port", String.valueOf(port), "--data-dir", dataDir.toString());

        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("Cannot open the database in").doesNotContain("\tat ");
        try (java.net.ServerSocket again = new java.net.ServerSocket(port, 50,
                java.net.InetAddress.getLoopbackAddress())) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void aCommandOnTheDataDirectoryOfARunningServerIsRefusedClearly() {
        try (TestServer server = TestServer.start(dataDir)) {
            Outcome refused = run("campus", "keys", "create", "--data-dir", dataDir.toString());

            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.err()).contains("in use by another Hexaflow process").doesNotContain("Exception");
        }
    }
}
