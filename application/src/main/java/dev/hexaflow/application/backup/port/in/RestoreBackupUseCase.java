package dev.hexaflow.application.backup.port.in;

import dev.hexaflow.domain.backup.BackupManifest;

/** Restores a backup into an empty data directory, after checking all of it; a refused backup writes nothing. */
public interface RestoreBackupUseCase {

    /**
     * Checks the archive whole (manifest, checksums, schema, row counts) and only then writes its files.
     *
     * @throws BackupRefusedException naming the first thing wrong; nothing is written then
     */
    BackupManifest restore(RestoreBackupCommand command);

    /**
     * Checks the archive as a restore would, writing nothing: what a backup taken over the network is held to
     * before it is kept.
     *
     * @throws BackupRefusedException naming the first thing wrong
     */
    BackupManifest verify(java.nio.file.Path archive);
}
