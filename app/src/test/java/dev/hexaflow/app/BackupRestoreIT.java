package dev.hexaflow.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.app.api.ServiceApi;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar: {@code hexaflow backup} from a server under runs and uploads, {@code hexaflow restore} into a
 * new directory, and a second server there answering every run detail, log page, upload and key as the first did;
 * a cut-off backup and a zip of something else are refused by the restore and write nothing.
 */
class BackupRestoreIT {

    private static final Path JAR = Path.of(System.getProperty("hexaflow.jar", "target/hexaflow.jar"));
    private static final String ADMIN = "backup-it-admin-token-0123";

    @TempDir
    Path work;

    @Test
    void aBackupOfABusyServerRestoresIntoASecondServerThatAnswersAsTheFirstDid() throws Exception {
        Path first = work.resolve("first");
        Path second = work.resolve("second");
        Path zip = work.resolve("nightly.zip");
        Path log = work.resolve("server.log");
        Map<String, JsonNode> runsBefore = new LinkedHashMap<>();
        Set<String> uploadsBefore = ConcurrentHashMap.newKeySet();
        Set<String> uploadsDuring = ConcurrentHashMap.newKeySet();
        Map<String, String> runsDuring = new ConcurrentHashMap<>();
        JsonNode quietLogs;
        long campusCount;
        JarServer a = JarServer.start(first, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        String key = a.demoKey();
        try {
            ServiceApi api = new ServiceApi(a.baseUrl(), key);
            for (int i = 0; i < 4; i++) {
                JsonNode run = ServiceApi.json(api.postJson("/v1/workflows/run",
                        ServiceApi.run(Map.of("year", "2026"), "blocking", "quiet")));
                runsBefore.put(run.get("workflow_run_id").asText(), null);
                uploadsBefore.add(api.upload("quiet", "note-" + i + ".txt", "text/plain",
                        ("note " + i).getBytes(StandardCharsets.UTF_8)));
            }
            for (String id : List.copyOf(runsBefore.keySet())) {
                runsBefore.put(id, ServiceApi.json(api.get("/v1/workflows/run/" + id)));
            }
            quietLogs = ServiceApi.json(api.get("/v1/workflows/logs?created_by_end_user_session_id=quiet&limit=50"));
            ServiceApi anonymous = new ServiceApi(a.baseUrl(), null);
            campusCount = ServiceApi.json(anonymous.get("/v2/events/holidays.json?key=" + a.campusKey())).get("meta")
                    .get("requests").asLong();

            AtomicBoolean going = new AtomicBoolean(true);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                int client = c;
                Thread thread = new Thread(() -> {
                    for (int n = 0; going.get(); n++) {
                        if (n % 2 == 0) {
                            HttpResponse<String> response = api.postJson("/v1/workflows/run",
                                    ServiceApi.run(Map.of("year", "2026"), "blocking", "busy-" + client));
                            if (response.statusCode() == 200) {
                                runsDuring.put(ServiceApi.json(response).get("workflow_run_id").asText(), "");
                            }
                        } else {
                            uploadsDuring.add(api.upload("busy-" + client, "busy.txt", "text/plain",
                                    " ".repeat(32 * 1024).getBytes(StandardCharsets.UTF_8)));
                        }
                    }
                });
                thread.start();
                clients.add(thread);
            }
            Thread.sleep(200);

            Result backup = hexaflow("backup", zip.toString(), "--url", a.baseUrl());

            going.set(false);
            for (Thread thread : clients) {
                thread.join(10_000);
            }
            assertThat(backup.exit()).as(backup.err()).isZero();
            assertThat(runsDuring).as("runs went on during the backup").isNotEmpty();
            assertThat(uploadsDuring).as("uploads went on during the backup").isNotEmpty();
        } finally {
            a.stop();
        }

        byte[] bytes = Files.readAllBytes(zip);
        Path truncated = work.resolve("truncated.zip");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length - 100));
        Path foreign = work.resolve("foreign.zip");
        BackupRestoreTest.writeZip(foreign, Map.of("photo.jpg", new byte[] {1, 2, 3}));
        for (Path refused : List.of(truncated, foreign)) {
            Path target = work.resolve("refused-" + refused.getFileName());
            Result restore = hexaflow("restore", refused.toString(), "--data-dir", target.toString());
            assertThat(restore.exit()).isEqualTo(1);
            assertThat(restore.err().strip()).doesNotContain("\n").contains("is not a Hexaflow backup to restore");
            assertThat(target).doesNotExist();
        }

        Result restore = hexaflow("restore", zip.toString(), "--data-dir", second.toString());
        assertThat(restore.exit()).as(restore.err()).isZero();

        JarServer b = JarServer.start(second, log, Map.of("HEXAFLOW_ADMIN_TOKEN", ADMIN));
        try {
            ServiceApi api = new ServiceApi(b.baseUrl(), key);
            for (Map.Entry<String, JsonNode> run : runsBefore.entrySet()) {
                assertThat(ServiceApi.json(api.get("/v1/workflows/run/" + run.getKey()))).isEqualTo(run.getValue());
            }
            assertThat(ServiceApi.json(api.get("/v1/workflows/logs?created_by_end_user_session_id=quiet&limit=50")))
                    .isEqualTo(quietLogs);
            assertThat(ServiceApi.json(api.get("/v1/workflows/logs?status=running")).get("total").asInt())
                    .as("no run is left half: none stays running").isZero();
            for (String id : runsDuring.keySet()) {
                HttpResponse<String> detail = api.get("/v1/workflows/run/" + id);
                assertThat(detail.statusCode()).isIn(200, 404);
                if (detail.statusCode() == 200) {
                    assertThat(ServiceApi.json(detail).get("status").asText()).isIn("succeeded", "failed");
                }
            }
            assertThat(api.postJson("/v1/workflows/run", ServiceApi.run(Map.of("year", "2026"), "blocking",
                    "after")).statusCode()).as("the app key opens the restored app").isEqualTo(200);
            assertThat(ServiceApi.json(new ServiceApi(b.baseUrl(), null).get("/v2/events/holidays.json?key="
                    + (b.campusKey() == null ? a.campusKey() : b.campusKey()))).get("meta").get("requests").asLong())
                    .as("the campus key and its usage count are kept").isEqualTo(campusCount + 1);
        } finally {
            b.stop();
        }
        Map<String, String> firstBlobs = blobsByUpload(first);
        Map<String, String> secondBlobs = blobsByUpload(second);
        for (String upload : uploadsBefore) {
            assertThat(secondBlobs.get(upload)).as("upload " + upload).isNotNull().isEqualTo(firstBlobs.get(upload));
        }
        for (Map.Entry<String, String> upload : secondBlobs.entrySet()) {
            assertThat(upload.getValue()).as("every restored upload has its very file")
                    .isEqualTo(firstBlobs.get(upload.getKey()));
        }
    }

    /** Upload id to the SHA-256 of its blob ("missing" when the record has no file). */
    private static Map<String, String> blobsByUpload(Path data) throws Exception {
        Map<String, String> blobs = new TreeMap<>();
        try (Connection db = DriverManager.getConnection("jdbc:h2:file:" + data.resolve("hexaflow"), "sa", "");
                ResultSet rows = db.createStatement().executeQuery("SELECT id, blob_key FROM upload_file")) {
            while (rows.next()) {
                Path file = data.resolve("files").resolve(rows.getString(2));
                blobs.put(rows.getString(1), Files.exists(file) ? HexFormat.of().formatHex(MessageDigest
                        .getInstance("SHA-256").digest(Files.readAllBytes(file))) : "missing");
            }
        }
        return blobs;
    }

    private record Result(int exit, String out, String err) {
    }

    private Result hexaflow(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("HEXAFLOW_"));
        builder.environment().put("HEXAFLOW_ADMIN_TOKEN", ADMIN);
        Path out = Files.createTempFile(work, "out", ".txt");
        Path err = Files.createTempFile(work, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("hexaflow " + String.join(" ", args) + " did not end");
        }
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
