package dev.hexaflow.application.backup.port.in;

import java.nio.file.Path;
import java.util.Objects;

/** Restore the backup file {@code archive} into {@code dataDir}, which must be empty or absent. */
public record RestoreBackupCommand(Path archive, Path dataDir) {

    public RestoreBackupCommand {
        Objects.requireNonNull(archive, "archive");
        Objects.requireNonNull(dataDir, "dataDir");
    }
}
