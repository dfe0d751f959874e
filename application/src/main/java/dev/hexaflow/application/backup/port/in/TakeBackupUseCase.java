package dev.hexaflow.application.backup.port.in;

import dev.hexaflow.domain.backup.BackupManifest;

/** Writes a consistent backup of the whole data directory while the server goes on serving. */
public interface TakeBackupUseCase {

    /**
     * Streams the backup to the command's target and answers its manifest. A failure part-way leaves the target
     * with an archive that a restore refuses (it has no manifest, or is cut off), never one it accepts.
     */
    BackupManifest backup(TakeBackupCommand command);
}
