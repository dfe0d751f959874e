package dev.hexaflow.application.backup.service;

import dev.hexaflow.application.backup.port.in.TakeBackupCommand;
import dev.hexaflow.application.backup.port.in.TakeBackupUseCase;
import dev.hexaflow.application.backup.port.out.AcknowledgedWrites;
import dev.hexaflow.application.backup.port.out.BackupArchive;
import dev.hexaflow.application.backup.port.out.DataDirectoryFiles;
import dev.hexaflow.application.backup.port.out.DatabaseSnapshots;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What was answered but not yet committed is committed first, so that the backup holds everything answered before
 * it began. The database then, through its own online snapshot; then the blobs the snapshot's uploads name. A blob never
 * changes once its upload is recorded (it is written whole and moved into place before the record), so blobs read
 * after the snapshot are the ones it names, whatever uploads arrive meanwhile; uploads recorded after it are simply
 * not in this backup. The manifest goes last, so an archive cut off before its end has none and is refused.
 */
public final class TakeBackupService implements TakeBackupUseCase {

    private final AcknowledgedWrites answered;
    private final DatabaseSnapshots snapshots;
    private final BackupArchive archive;
    private final DataDirectoryFiles files;
    private final String hexaflowVersion;
    private final Clock clock;

    public TakeBackupService(AcknowledgedWrites answered, DatabaseSnapshots snapshots, BackupArchive archive,
            DataDirectoryFiles files, String hexaflowVersion, Clock clock) {
        this.answered = answered;
        this.snapshots = snapshots;
        this.archive = archive;
        this.files = files;
        this.hexaflowVersion = hexaflowVersion;
        this.clock = clock;
    }

    @Override
    public BackupManifest backup(TakeBackupCommand command) {
        answered.commitNow();
        BackupArchive.Writer writer = archive.create(command.target());
        DatabaseSnapshots.Contents[] snapshot = new DatabaseSnapshots.Contents[1];
        List<BackupEntry> entries = new ArrayList<>();
        entries.add(writer.add(BackupEntry.DATABASE, out -> snapshot[0] = snapshots.take(out)));
        add(writer, BackupEntry.ADMIN_TOKEN, false).ifPresent(entries::add);
        for (String key : snapshot[0].blobKeys()) {
            entries.add(add(writer, BackupEntry.blob(key), true).orElseThrow());
        }
        BackupManifest manifest = new BackupManifest(BackupManifest.FORMAT_VERSION, hexaflowVersion,
                snapshot[0].schemaVersion(), clock.instant().getEpochSecond(), snapshot[0].counts(), entries);
        writer.finish(manifest);
        return manifest;
    }

    private Optional<BackupEntry> add(BackupArchive.Writer writer, String name, boolean required) {
        Optional<InputStream> content = files.open(name);
        if (content.isEmpty()) {
            if (required) {
                throw new IllegalStateException("the snapshot names " + name + ", which is not in the data directory");
            }
            return Optional.empty();
        }
        try (InputStream in = content.get()) {
            return Optional.of(writer.add(name, in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }
}
