package dev.hexaflow.adapters.persistence.backup;

import dev.hexaflow.adapters.persistence.H2SystemProperties;
import dev.hexaflow.application.backup.port.out.DatabaseSnapshots;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots by H2's own {@code BACKUP TO}: an online copy of the database file at one commit, taken while other
 * sessions go on writing (H2's MVStore copies a consistent version of its pages). Copying the live file by hand
 * would catch pages of different commits. The copy lands in a zip H2 makes in the data directory (private, same
 * disk), is read out into the backup and deleted.
 */
public final class H2DatabaseSnapshots implements DatabaseSnapshots {

    private static final String DATABASE_NAME = "hexaflow";
    private static final String HISTORY = "flyway_schema_history";
    private static final String LEFTOVER_PREFIX = ".backup-";
    /** Left free in the temporary folder by the copy a check takes. */
    private static final long ROOM_TO_LEAVE = 64L << 20;
    private static final Logger LOG = LoggerFactory.getLogger(H2DatabaseSnapshots.class);

    static {
        H2SystemProperties.apply();
    }

    private final DataSource live;
    private final Path workDirectory;

    /** @param workDirectory where H2 writes its copy for the moment it takes to read it out */
    public H2DatabaseSnapshots(DataSource live, Path workDirectory) {
        this.live = live;
        this.workDirectory = workDirectory;
        if (workDirectory != null) {
            deleteLeftovers();
        }
    }

    /** Snapshots that only read backups ({@link #inspect}, {@link #newestSchemaVersion}): for a restore. */
    public static H2DatabaseSnapshots forReading() {
        return new H2DatabaseSnapshots(null, null);
    }

    @Override
    public Contents take(OutputStream target) {
        if (live == null) {
            throw new IllegalStateException("these snapshots only read backups");
        }
        Path work = workDirectory.resolve(LEFTOVER_PREFIX + UUID.randomUUID());
        Path copy = work.resolve("h2-backup.zip");
        try {
            createPrivateDirectory(work);
            try (Connection connection = live.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("BACKUP TO '" + copy.toAbsolutePath().toString().replace("'", "''") + "'");
            }
            Path database = work.resolve(DATABASE_NAME + ".mv.db");
            try (ZipFile zip = new ZipFile(copy.toFile())) {
                ZipEntry entry = zip.getEntry(DATABASE_NAME + ".mv.db");
                if (entry == null) {
                    throw new SnapshotException("H2's backup holds no " + DATABASE_NAME + ".mv.db", null);
                }
                try (InputStream in = zip.getInputStream(entry); OutputStream file = Files.newOutputStream(database)) {
                    byte[] buffer = new byte[64 * 1024];
                    int n;
                    while ((n = in.read(buffer)) > 0) {
                        file.write(buffer, 0, n);
                        target.write(buffer, 0, n);
                    }
                }
            }
            Files.delete(copy);
            return read(database);
        } catch (SQLException | IOException e) {
            throw new SnapshotException("cannot take a snapshot of the database: " + e.getMessage(), e);
        } finally {
            deleteTree(work);
        }
    }

    /**
     * Copies the database into a private temporary directory (outside any data directory), reads its storage for
     * what opening it would load or run ({@link H2FileInspection}), and only when it holds none of that opens it,
     * read-only, for its contents. H2 could open it inside the zip, but its zip file system seeks backwards by
     * inflating from the start again: minutes for a database of a few hundred megabytes.
     */
    @Override
    public Contents inspect(InputStream source, long size) {
        Path work = null;
        try {
            work = Files.createTempDirectory("hexaflow-restore-check-", PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            long free = ZipBackupArchive.usableSpace(work);
            if (size > free - ROOM_TO_LEAVE) {
                throw new SnapshotException("checking it takes a copy of its " + ZipBackupArchive.megabytes(size)
                        + " database, and the temporary folder " + work.getParent() + " has "
                        + ZipBackupArchive.megabytes(free) + " free", null);
            }
            Path database = work.resolve(DATABASE_NAME + ".mv.db");
            try (OutputStream out = Files.newOutputStream(database)) {
                source.transferTo(out);
            }
            List<String> findings = H2FileInspection.findings(database);
            if (!findings.isEmpty()) {
                LOG.warn("Refused a backup's database unopened, as opening it would load or run code: {}",
                        String.join("; ", findings));
                throw new UnsafeDatabaseException(findings);
            }
            return read(database);
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e);
        } finally {
            if (work != null) {
                deleteTree(work);
            }
        }
    }

    private static Contents read(Path database) {
        String file = database.toAbsolutePath().toString();
        String url = "jdbc:h2:file:" + file.substring(0, file.length() - ".mv.db".length())
                + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE";
        try (Connection db = DriverManager.getConnection(url, "sa", "")) {
            return new Contents(schemaVersion(db), counts(db), blobKeys(db));
        } catch (SQLException e) {
            throw new SnapshotException(e.getMessage().lines().findFirst().orElse("unreadable"), e);
        }
    }

    private static void createPrivateDirectory(Path directory) throws IOException {
        try {
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectory(directory);
        }
    }

    /** Deletes the work directories of backups cut off by a stopped process: called before any backup starts. */
    private void deleteLeftovers() {
        try (java.util.stream.Stream<Path> files = Files.list(workDirectory)) {
            files.filter(path -> path.getFileName().toString().startsWith(LEFTOVER_PREFIX))
                    .forEach(H2DatabaseSnapshots::deleteTree);
        } catch (IOException e) {
            // A leftover stays until the next start; it is never read.
        }
    }

    private static void deleteTree(Path root) {
        try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // Best effort: a leftover is deleted at the next start.
        }
    }

    private static int schemaVersion(Connection db) throws SQLException {
        int newest = 0;
        try (Statement statement = db.createStatement(); ResultSet rows = statement.executeQuery(
                "SELECT \"version\" FROM \"" + HISTORY + "\" WHERE \"success\" AND \"version\" IS NOT NULL")) {
            while (rows.next()) {
                newest = Math.max(newest, Integer.parseInt(rows.getString(1).split("\\.")[0]));
            }
        }
        return newest;
    }

    private static Map<String, Long> counts(Connection db) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Statement statement = db.createStatement(); ResultSet rows = statement.executeQuery(
                "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC' "
                        + "AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")) {
            while (rows.next()) {
                if (!rows.getString(1).equals(HISTORY)) {
                    tables.add(rows.getString(1));
                }
            }
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : tables) {
            try (Statement statement = db.createStatement(); ResultSet rows = statement.executeQuery(
                    "SELECT COUNT(*) FROM \"" + table.replace("\"", "\"\"") + "\"")) {
                rows.next();
                counts.put(table.toLowerCase(Locale.ROOT), rows.getLong(1));
            }
        }
        return counts;
    }

    private static List<String> blobKeys(Connection db) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT blob_key FROM upload_file ORDER BY blob_key")) {
            while (rows.next()) {
                keys.add(rows.getString(1));
            }
        }
        return keys;
    }

    @Override
    public int newestSchemaVersion() {
        String url = "jdbc:h2:mem:schema-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=0";
        int newest = 0;
        for (MigrationInfo migration : Flyway.configure().dataSource(url, "sa", "")
                .locations(dev.hexaflow.adapters.persistence.H2Database.MIGRATIONS).load().info().all()) {
            if (migration.getVersion() != null) {
                newest = Math.max(newest, migration.getVersion().getMajor().intValue());
            }
        }
        return newest;
    }
}
