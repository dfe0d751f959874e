package dev.hexaflow.application.backup.service;

import dev.hexaflow.application.backup.port.in.BackupRefusedException;
import dev.hexaflow.application.backup.port.in.RestoreBackupCommand;
import dev.hexaflow.application.backup.port.in.RestoreBackupUseCase;
import dev.hexaflow.application.backup.port.out.BackupArchive;
import dev.hexaflow.application.backup.port.out.DatabaseSnapshots;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import dev.hexaflow.domain.backup.RestoreCheck;
import java.nio.file.Path;

/**
 * Reads the archive whole before writing a byte: a complete archive with a manifest, every file of its size and
 * checksum, a schema this build can run (an older one is migrated when the server starts), and a database that
 * holds the rows the manifest counts. Only then are the files unpacked.
 */
public final class RestoreBackupService implements RestoreBackupUseCase {

    private final BackupArchive archive;
    private final DatabaseSnapshots snapshots;

    public RestoreBackupService(BackupArchive archive, DatabaseSnapshots snapshots) {
        this.archive = archive;
        this.snapshots = snapshots;
    }

    @Override
    public BackupManifest restore(RestoreBackupCommand command) {
        try {
            archive.requireEmpty(command.dataDir());
        } catch (BackupArchive.TargetNotEmptyException e) {
            throw new BackupRefusedException(e.getMessage(), e);
        }
        BackupManifest manifest = verify(command.archive());
        archive.extract(command.archive(), command.dataDir());
        return manifest;
    }

    @Override
    public BackupManifest verify(Path file) {
        BackupArchive.Read read;
        try {
            read = archive.read(file);
        } catch (BackupArchive.UnreadableArchiveException e) {
            throw new BackupRefusedException(e.getMessage(), e);
        }
        BackupManifest manifest = read.manifest();
        refuseUnlessAccepted(RestoreCheck.files(manifest, read.found(), snapshots.newestSchemaVersion()));
        DatabaseSnapshots.Contents contents;
        try {
            contents = snapshots.inspect(file, BackupEntry.DATABASE);
        } catch (DatabaseSnapshots.SnapshotException e) {
            throw new BackupRefusedException("the database in it cannot be read: " + e.getMessage(), e);
        }
        refuseUnlessAccepted(RestoreCheck.counts(manifest, contents.counts()));
        for (String key : contents.blobKeys()) {
            if (!read.found().containsKey(BackupEntry.blob(key))) {
                throw new BackupRefusedException("the upload blob " + key + " its database names is missing");
            }
        }
        return manifest;
    }

    private static void refuseUnlessAccepted(RestoreCheck check) {
        if (check instanceof RestoreCheck.Refused refused) {
            throw new BackupRefusedException(refused.reason());
        }
    }
}
