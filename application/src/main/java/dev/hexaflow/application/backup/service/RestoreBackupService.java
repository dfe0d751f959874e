package dev.hexaflow.application.backup.service;

import dev.hexaflow.application.backup.port.in.BackupRefusedException;
import dev.hexaflow.application.backup.port.in.RestoreBackupCommand;
import dev.hexaflow.application.backup.port.in.RestoreBackupUseCase;
import dev.hexaflow.application.backup.port.out.BackupArchive;
import dev.hexaflow.application.backup.port.out.DatabaseSnapshots;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import dev.hexaflow.domain.backup.RestoreCheck;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the archive whole before writing a byte: a complete archive with a manifest, every file of its size and
 * checksum (none unpacked past it), a schema this build can run (an older one is migrated when the server starts), a
 * database that defines nothing that would load or run code when opened, and that holds the rows the manifest
 * counts. Only then are the files unpacked.
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
        try {
            archive.extract(command.archive(), manifest, command.dataDir());
        } catch (BackupArchive.NoRoomException e) {
            throw new BackupRefusedException(e.getMessage(), e);
        }
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
        BackupEntry database = manifest.entries().stream().filter(entry -> entry.name().equals(BackupEntry.DATABASE))
                .findFirst().orElseThrow();
        DatabaseSnapshots.Contents contents;
        try (InputStream in = archive.open(file, database)) {
            contents = snapshots.inspect(in, database.size());
        } catch (DatabaseSnapshots.UnsafeDatabaseException e) {
            throw new BackupRefusedException("its database defines what H2 would load or run as code when opening it, "
                    + "which a Hexaflow database never holds: " + shortList(e.findings()) + "; it was not opened", e);
        } catch (DatabaseSnapshots.SnapshotException e) {
            throw new BackupRefusedException("the database in it cannot be read: " + e.getMessage(), e);
        } catch (BackupArchive.UnreadableArchiveException e) {
            throw new BackupRefusedException(e.getMessage(), e);
        } catch (IOException e) {
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

    /** The first few findings, so that the refusal stays one line an operator reads. */
    private static String shortList(List<String> findings) {
        int shown = Math.min(findings.size(), 5);
        return String.join("; ", findings.subList(0, shown))
                + (findings.size() > shown ? "; and " + (findings.size() - shown) + " more" : "");
    }

    private static void refuseUnlessAccepted(RestoreCheck check) {
        if (check instanceof RestoreCheck.Refused refused) {
            throw new BackupRefusedException(refused.reason());
        }
    }
}
