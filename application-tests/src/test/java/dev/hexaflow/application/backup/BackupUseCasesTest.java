package dev.hexaflow.application.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.adapters.persistence.backup.FileSystemDataDirectoryFiles;
import dev.hexaflow.adapters.persistence.backup.H2DatabaseSnapshots;
import dev.hexaflow.adapters.persistence.backup.ZipBackupArchive;
import dev.hexaflow.adapters.persistence.jdbi.JdbiAppRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiEndUserRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.application.MovableClock;
import dev.hexaflow.application.backup.port.in.BackupRefusedException;
import dev.hexaflow.application.backup.port.in.RestoreBackupCommand;
import dev.hexaflow.application.backup.port.in.TakeBackupCommand;
import dev.hexaflow.application.backup.service.RestoreBackupService;
import dev.hexaflow.application.backup.service.TakeBackupService;
import dev.hexaflow.domain.app.App;
import dev.hexaflow.domain.app.EndUser;
import dev.hexaflow.domain.app.SiteSettings;
import dev.hexaflow.domain.app.UploadedFile;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Taking a backup of a data directory and restoring it, on the real H2 file database, snapshots, zip archive and
 * data directory: the database holds an app and one upload, whose blob is in the data directory.
 */
class BackupUseCasesTest {

    /** Blob keys as the blob store makes them: 32 hex digits. */
    private static final String BLOB = "0123456789abcdef".repeat(2);
    private static final String GONE = "fedcba9876543210".repeat(2);

    @TempDir
    Path temp;
    private Path dataDir;
    private H2Database database;
    private final AtomicInteger commits = new AtomicInteger();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final RestoreBackupService restore = new RestoreBackupService(new ZipBackupArchive(),
            H2DatabaseSnapshots.forReading());

    private void open(String blobKey, boolean blobOnDisk) throws IOException {
        dataDir = Files.createDirectories(temp.resolve("data"));
        database = H2Database.openFile(dataDir);
        new JdbiAppRepository(database.jdbi()).add(new App("app-1", "Echo", "", "workflow", "emoji", "🤖", "#FFF",
                List.of(), new SiteSettings("Echo", "emoji", "🤖", "#FFF", null, "", "", "", "", "en-US", true,
                        false), "sitecode1", true, 1));
        new JdbiEndUserRepository(database.jdbi()).findOrAdd(new EndUser("eu-1", "app-1", "ada", 1));
        new JdbiUploadRepository(database.jdbi()).add(new UploadedFile("up-1", "app-1", "eu-1", "a.txt", 5, "txt",
                "text/plain", blobKey, 1));
        if (blobOnDisk) {
            Path blob = dataDir.resolve(BackupEntry.blob(blobKey));
            Files.createDirectories(blob.getParent());
            Files.writeString(blob, "hello");
        }
    }

    @AfterEach
    void close() {
        if (database != null) {
            database.close();
        }
    }

    private TakeBackupService backups() {
        return new TakeBackupService(commits::incrementAndGet, new H2DatabaseSnapshots(database.dataSource(),
                dataDir), new ZipBackupArchive(), new FileSystemDataDirectoryFiles(dataDir), "0.1.0-test", clock);
    }

    private Path backupFile() throws IOException {
        Path archive = temp.resolve("backup.zip");
        try (OutputStream out = Files.newOutputStream(archive)) {
            backups().backup(new TakeBackupCommand(out));
        }
        return archive;
    }

    @Test
    void aBackupCommitsWhatWasAnsweredThenHoldsTheDatabaseAndItsUploadsBlobs() throws IOException {
        open(BLOB, true);

        Path archive = backupFile();
        BackupManifest manifest = restore.verify(archive);

        assertThat(commits).hasValue(1);
        assertThat(manifest.entries()).extracting(BackupEntry::name).containsExactly(BackupEntry.DATABASE,
                BackupEntry.blob(BLOB));
        assertThat(manifest.counts()).containsEntry("app", 1L).containsEntry("upload_file", 1L);
        assertThat(manifest.hexaflowVersion()).isEqualTo("0.1.0-test");
        assertThat(manifest.createdAt()).isEqualTo(clock.instant().getEpochSecond());
    }

    @Test
    void aRestoreUnpacksIntoAnEmptyDirectoryADatabaseWithTheSameRowsAndBlobs() throws IOException {
        open(BLOB, true);
        Path archive = backupFile();
        database.close();
        database = null;
        Path restored = temp.resolve("restored");

        restore.restore(new RestoreBackupCommand(archive, restored));

        assertThat(Files.readString(restored.resolve(BackupEntry.blob(BLOB)))).isEqualTo("hello");
        database = H2Database.openFile(restored);
        assertThat(new JdbiAppRepository(database.jdbi()).find("app-1").orElseThrow().name()).isEqualTo("Echo");
        assertThat(new JdbiUploadRepository(database.jdbi()).find("up-1").orElseThrow().blobKey())
                .isEqualTo(BLOB);
    }

    @Test
    void aRestoreIntoADirectoryThatHoldsFilesIsRefusedAndWritesNothing() throws IOException {
        open(BLOB, true);
        Path archive = backupFile();
        Path busy = Files.createDirectories(temp.resolve("busy"));
        Files.writeString(busy.resolve("notes.txt"), "mine");

        assertThatThrownBy(() -> restore.restore(new RestoreBackupCommand(archive, busy)))
                .isInstanceOf(BackupRefusedException.class);
        try (var listed = Files.list(busy)) {
            assertThat(listed).containsExactly(busy.resolve("notes.txt"));
        }
    }

    @Test
    void anArchiveCutOffBeforeItsEndIsRefused() throws IOException {
        open(BLOB, true);
        byte[] whole = Files.readAllBytes(backupFile());
        Path cut = Files.write(temp.resolve("cut.zip"), Arrays.copyOf(whole, whole.length / 2));

        assertThatThrownBy(() -> restore.verify(cut)).isInstanceOf(BackupRefusedException.class);
        assertThatThrownBy(() -> restore.restore(new RestoreBackupCommand(cut, temp.resolve("out"))))
                .isInstanceOf(BackupRefusedException.class);
        assertThat(temp.resolve("out/" + BackupEntry.DATABASE)).doesNotExist();
    }

    @Test
    void aBackupWhoseUploadNamesABlobNotOnDiskFailsNamingIt() throws IOException {
        open(GONE, false);

        assertThatThrownBy(this::backupFile).isInstanceOf(IllegalStateException.class)
                .hasMessage("the snapshot names files/" + GONE + ", which is not in the data directory");
    }
}
