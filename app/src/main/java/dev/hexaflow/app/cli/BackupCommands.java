package dev.hexaflow.app.cli;

import dev.hexaflow.adapters.persistence.H2Database;
import dev.hexaflow.app.Hexaflow;
import dev.hexaflow.app.Main;
import dev.hexaflow.app.wiring.BackupModule;
import dev.hexaflow.application.backup.port.in.BackupRefusedException;
import dev.hexaflow.application.backup.port.in.RestoreBackupCommand;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;

/** {@code hexaflow backup} (from a running server) and {@code hexaflow restore} (into an empty data directory). */
public final class BackupCommands {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private BackupCommands() {
    }

    /**
     * Streams the server's backup into a private temporary file beside the target, checks it as a restore would,
     * and only then moves it into place: a backup cut off or refused leaves no file, and an earlier backup of the
     * same name stays until a whole new one replaces it.
     */
    public static int backup(Command.Backup command, PrintStream out, PrintStream err) {
        Path target = command.file().toAbsolutePath();
        Path part;
        try {
            part = ownerOnlyTempFile(target);
        } catch (IOException e) {
            err.println("hexaflow: cannot write beside " + command.file() + ": " + e.getMessage());
            return Main.FAILED;
        }
        // Ctrl-C or a kill during the download: the partial file goes with the process.
        Thread cleanUp = new Thread(() -> deleteQuietly(part));
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(command.server().url() + "/admin/backup"))
                    .header("Authorization", "Bearer " + command.server().token()).GET().build();
            HttpResponse<Path> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofFile(part));
            if (response.statusCode() != 200) {
                err.println("hexaflow: the server answered " + response.statusCode() + " to the backup: "
                        + firstLine(Files.readString(part, StandardCharsets.UTF_8)));
                return Main.FAILED;
            }
            BackupManifest manifest = BackupModule.restores(command.maxRatio()).verify(part);
            moveIntoPlace(part, target);
            out.println(command.file() + ": " + summary(manifest) + ", " + Files.size(target) + " bytes");
            return Main.OK;
        } catch (BackupRefusedException e) {
            err.println("hexaflow: the backup received is not whole, and is not kept: " + e.getMessage());
            return Main.FAILED;
        } catch (IOException | UncheckedIOException e) {
            err.println("hexaflow: the backup failed, and no file is kept: " + e.getMessage());
            return Main.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("hexaflow: the backup was interrupted, and no file is kept");
            return Main.FAILED;
        } finally {
            deleteQuietly(part);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException e) {
                // The process is shutting down: the hook runs (and finds nothing to delete).
            }
        }
    }

    private static void deleteQuietly(Path part) {
        try {
            Files.deleteIfExists(part);
        } catch (IOException e) {
            // Named .part: it is never taken for a backup.
        }
    }

    public static int restore(Command.Restore command, PrintStream out, PrintStream err) {
        if (command.config().database().isPresent()) {
            err.println("hexaflow: " + BackupModule.ON_DATABASE_SERVER);
            return Main.FAILED;
        }
        if (!Files.isRegularFile(command.file())) {
            err.println("hexaflow: no backup file " + command.file());
            return Main.USAGE;
        }
        try {
            BackupManifest manifest = BackupModule.restores(command.maxRatio()).restore(
                    new RestoreBackupCommand(command.file(), command.dataDir()));
            out.println("Restored " + command.file() + " into " + command.dataDir() + ": " + summary(manifest)
                    + ". Start the server with --data-dir " + command.dataDir() + ".");
            return Main.OK;
        } catch (BackupRefusedException e) {
            err.println("hexaflow: " + e.getMessage() + "; nothing was written");
            return Main.FAILED;
        } catch (UncheckedIOException e) {
            err.println("hexaflow: " + e.getMessage());
            return Main.FAILED;
        }
    }

    /**
     * Rewrites a stopped server's database whole; refused while a server runs on it, and on a data directory
     * with no database.
     */
    public static int compact(Command.Compact command, PrintStream out, PrintStream err) {
        Path dataDir = command.config().dataDir();
        if (command.config().database().isPresent()) {
            err.println("hexaflow: this server keeps its data in PostgreSQL (HEXAFLOW_DATABASE_URL), which gives "
                    + "space back on its own (autovacuum; VACUUM FULL for the file system): compact is for H2");
            return Main.FAILED;
        }
        Path file = dataDir.resolve("hexaflow.mv.db");
        if (!Files.isRegularFile(file)) {
            err.println("hexaflow: no database in " + dataDir + " (no hexaflow.mv.db): nothing to compact");
            return Main.USAGE;
        }
        try {
            long before = Files.size(file);
            long began = System.nanoTime();
            H2Database database;
            try {
                database = H2Database.openFile(dataDir);
            } catch (H2Database.DatabaseInUseException e) {
                err.println("hexaflow: the database in " + dataDir + " is in use: stop the server running on it, "
                        + "then compact");
                return Main.FAILED;
            }
            database.closeCompacted();
            long after = Files.size(file);
            out.printf(java.util.Locale.ROOT, "Compacted the database in %s: %s -> %s in %.1f s%n", dataDir,
                    megabytes(before), megabytes(after), (System.nanoTime() - began) / 1e9);
            return Main.OK;
        } catch (IOException | RuntimeException e) {
            err.println("hexaflow: the database in " + dataDir + " could not be compacted: " + e.getMessage());
            return Main.FAILED;
        }
    }

    private static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static String summary(BackupManifest manifest) {
        Map<String, Long> counts = manifest.counts();
        long blobs = manifest.entries().stream().filter(entry -> entry.name().startsWith(BackupEntry.BLOB_FOLDER))
                .count();
        return "Hexaflow " + manifest.hexaflowVersion() + ", schema " + manifest.schemaVersion() + ", "
                + counts.getOrDefault("app", 0L) + " apps, " + counts.getOrDefault("workflow_run", 0L) + " runs, "
                + counts.getOrDefault("upload_file", 0L) + " uploads (" + blobs + " files)";
    }

    private static Path ownerOnlyTempFile(Path target) throws IOException {
        Path directory = target.getParent();
        String prefix = "." + target.getFileName() + ".";
        try {
            return Files.createTempFile(directory, prefix, ".part",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            return Files.createTempFile(directory, prefix, ".part");
        }
    }

    private static void moveIntoPlace(Path part, Path target) throws IOException {
        try {
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static String firstLine(String body) {
        String line = body.lines().findFirst().orElse("");
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
