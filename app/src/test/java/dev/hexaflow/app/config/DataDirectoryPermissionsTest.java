package dev.hexaflow.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.app.Hexaflow;
import dev.hexaflow.app.TestServer;
import dev.hexaflow.app.api.ServiceApi;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data directory holds every run, the admin token and the uploads: no other user may read any of it. */
class DataDirectoryPermissionsTest {

    @TempDir
    Path root;

    @Test
    void aNewDataDirectoryItsDatabaseTokenLockAndUploadsAreTheOwnersOnly() throws IOException {
        Path dataDir = root.resolve("data");
        try (Hexaflow first = Hexaflow.start(new Configuration("127.0.0.1", 0, dataDir, Optional.empty()))) {
            assertThat(first.report().newAdminToken()).isPresent();
        }
        try (TestServer server = TestServer.start(dataDir)) {
            upload(server);

            assertOwnerOnly(dataDir);
        }
        assertThat(Files.exists(dataDir.resolve("admin-token"))).isTrue();
        assertThat(Files.exists(dataDir.resolve("hexaflow.mv.db"))).isTrue();
        assertThat(Files.exists(dataDir.resolve(".lock"))).isTrue();
        try (Stream<Path> blobs = Files.list(dataDir.resolve("files"))) {
            assertThat(blobs.count()).as("uploaded blobs").isGreaterThan(0);
        }
    }

    @Test
    void aDataDirectoryLeftReadableByAnOlderStartIsNarrowedAtTheNextStart() throws IOException {
        Path dataDir = root.resolve("old");
        try (TestServer server = TestServer.start(dataDir)) {
            upload(server);
        }
        try (Stream<Path> all = Files.walk(dataDir)) {
            for (Path path : all.toList()) {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                        Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }

        try (TestServer server = TestServer.start(dataDir)) {
            assertOwnerOnly(dataDir);
        }
    }

    private static void upload(TestServer server) {
        ServiceApi echo = server.api(server.importApp("echo.yml").get("api_key").asText());
        echo.upload("ada", "notes.txt", "text/plain", "private".getBytes(StandardCharsets.UTF_8));
    }

    /** Every folder 0700 and every file 0600, the directory itself included. */
    private static void assertOwnerOnly(Path dataDir) throws IOException {
        Map<String, String> modes = new TreeMap<>();
        Map<String, String> expected = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dataDir)) {
            for (Path path : all.toList()) {
                String name = dataDir.relativize(path).toString();
                modes.put(name, PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
                expected.put(name, Files.isDirectory(path) ? "rwx------" : "rw-------");
            }
        }
        assertThat(modes).containsKeys("", "hexaflow.mv.db", ".lock", "files");
        assertThat(modes).isEqualTo(expected);
    }
}
