package dev.hexaflow.app;

import dev.hexaflow.adapters.persistence.backup.FileSystemDataDirectoryFiles;
import dev.hexaflow.adapters.persistence.backup.H2DatabaseSnapshots;
import dev.hexaflow.adapters.persistence.backup.ZipBackupArchive;
import dev.hexaflow.application.backup.port.in.RestoreBackupUseCase;
import dev.hexaflow.application.backup.port.in.TakeBackupUseCase;
import dev.hexaflow.application.backup.service.RestoreBackupService;
import dev.hexaflow.application.backup.service.TakeBackupService;
import java.nio.file.Path;
import java.time.Clock;

/** Backups of a running server's data directory, and restores (which need no server). */
final class BackupModule {

    private BackupModule() {
    }

    /** The backup of the server on this storage. */
    static TakeBackupUseCase backups(Storage storage, Path dataDir, Clock clock) {
        return new TakeBackupService(new H2DatabaseSnapshots(storage.dataSource(), dataDir), new ZipBackupArchive(),
                new FileSystemDataDirectoryFiles(dataDir), version(), clock);
    }

    static RestoreBackupUseCase restores() {
        return new RestoreBackupService(new ZipBackupArchive(), H2DatabaseSnapshots.forReading());
    }

    /** The version the jar was built as; "development" when run from the build's classes. */
    static String version() {
        String version = BackupModule.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }
}
