package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.backup.FileSystemDataDirectoryFiles;
import dev.hexaflow.adapters.persistence.backup.H2DatabaseSnapshots;
import dev.hexaflow.adapters.persistence.backup.ZipBackupArchive;
import dev.hexaflow.application.backup.port.in.BackupRefusedException;
import dev.hexaflow.application.backup.port.in.RestoreBackupUseCase;
import dev.hexaflow.application.backup.port.in.TakeBackupUseCase;
import dev.hexaflow.application.backup.port.out.AcknowledgedWrites;
import dev.hexaflow.application.backup.service.RestoreBackupService;
import dev.hexaflow.application.backup.service.TakeBackupService;
import java.nio.file.Path;
import java.time.Clock;

/** Backups of a running server's data directory, and restores (which need no server). */
public final class BackupModule {

    private BackupModule() {
    }

    /**
     * A backup of a PostgreSQL store is the server's own business (pg_dump takes a consistent copy while
     * Hexaflow serves); this one copies an H2 data directory only.
     */
    public static final String ON_DATABASE_SERVER = "this server keeps its data in PostgreSQL (HEXAFLOW_DATABASE_URL), "
            + "which hexaflow backup and restore do not copy: back the database up with pg_dump and restore it with "
            + "pg_restore, and copy the data directory's files/ and knowledge/ folders beside it";

    /**
     * The backup of the server on this storage: refused when the store is a PostgreSQL server.
     *
     * @param answered what the server answered before committing it, committed before each snapshot
     */
    public static TakeBackupUseCase backups(Storage storage, Path dataDir, Clock clock, AcknowledgedWrites answered) {
        if (storage.onDatabaseServer()) {
            return command -> {
                throw new BackupRefusedException(ON_DATABASE_SERVER);
            };
        }
        return new TakeBackupService(answered, new H2DatabaseSnapshots(storage.dataSource(), dataDir), new ZipBackupArchive(),
                new FileSystemDataDirectoryFiles(dataDir), version(), clock);
    }

    /** How many times its own size a backup may unpack to (past 64 MB), unless HEXAFLOW_BACKUP_MAX_RATIO says. */
    public static final long DEFAULT_MAX_RATIO = ZipBackupArchive.Limits.DEFAULTS.maxRatio();

    /** @param maxRatio how many times its own size a backup may unpack to, past 64 MB */
    public static RestoreBackupUseCase restores(long maxRatio) {
        return new RestoreBackupService(new ZipBackupArchive(ZipBackupArchive.Limits.DEFAULTS.withMaxRatio(maxRatio)),
                H2DatabaseSnapshots.forReading());
    }

    /** The version the jar was built as; "development" when run from the build's classes. */
    static String version() {
        String version = BackupModule.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }
}
