package dev.hexaflow.adapters.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The file of a new H2 database with the whole schema in it, made by the build from the migration scripts and put
 * in a data directory that has no database yet. Running the 34 scripts took a first start some 0.6 s (H2 writes its
 * file at every statement, and Flyway's classes load for it), the longest step of a start on an empty data directory
 * (BENCHMARKS.md, issue 40); a copied file is read as an existing database is. Flyway made this file, so its history
 * is Flyway's own and a later script applies on top of it as on any other database. The build makes it empty: no
 * table holds a row except Flyway's history, so no two installations share anything but the schema
 * ({@code NewDatabaseFileTest}).
 */
public final class NewDatabaseFile {

    /** Where the build puts the file, among the classes. */
    static final String RESOURCE = "db/h2-new-database.mv.db";

    /** H2's name for the database file of the database {@code hexaflow}. */
    static final String FILE_NAME = "hexaflow.mv.db";

    /**
     * H2 settings that say how a database runs, not how its file is made: with any other ({@code CIPHER},
     * {@code COMPRESS}, {@code IFEXISTS}, a compatibility {@code MODE}), H2 makes the file itself as it is told.
     */
    private static final Set<String> RUNNING_SETTINGS = Set.of("DB_CLOSE_ON_EXIT", "DB_CLOSE_DELAY", "WRITE_DELAY",
            "QUERY_CACHE_SIZE", "CACHE_SIZE", "LOCK_TIMEOUT", "DEFAULT_LOCK_TIMEOUT", "MAX_MEMORY_ROWS",
            "RETENTION_TIME", "MAX_COMPACT_TIME", "TRACE_LEVEL_FILE", "TRACE_LEVEL_SYSTEM_OUT");

    /** Flyway's logger in the build, where it says each script it runs on java.util.logging: held, so it stays quiet. */
    private static final java.util.logging.Logger FLYWAY_IN_THE_BUILD = java.util.logging.Logger.getLogger(
            "org.flywaydb");

    private NewDatabaseFile() {
    }

    /** Whether a database opened with these settings may start from the build's file. */
    static boolean suits(Map<String, String> settings) {
        return RUNNING_SETTINGS.containsAll(settings.keySet());
    }

    /**
     * Puts the build's file in {@code dataDir} when it has no database file; false when it has one, when the
     * classes hold no such file (classes not built by Maven) or when it cannot be written (a full disk): H2 and
     * Flyway then make the database as they always did, and say why when they cannot either. The file is copied
     * beside its place and moved there, so a start killed halfway leaves no half database behind.
     */
    static boolean placeIn(Path dataDir) {
        Path target = dataDir.resolve(FILE_NAME);
        if (Files.exists(target)) {
            return false;
        }
        Path partial = dataDir.resolve(FILE_NAME + ".new");
        try (InputStream file = NewDatabaseFile.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (file == null) {
                return false;
            }
            Files.createDirectories(dataDir);
            Files.copy(file, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, target);
            return true;
        } catch (IOException e) { // a full disk, or a file made meanwhile (FileAlreadyExistsException)
            deleteQuietly(partial);
            return false;
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // The next start copies over it.
        }
    }

    /**
     * Makes the file: {@code NewDatabaseFile TARGET} migrates a new database in a folder of its own with Flyway,
     * compacts it as H2 shuts it down, and writes its file to TARGET. Run by the build ({@code exec-maven-plugin}
     * at {@code process-classes}).
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: NewDatabaseFile TARGET");
        }
        FLYWAY_IN_THE_BUILD.setLevel(java.util.logging.Level.WARNING);
        Path target = Path.of(args[0]);
        Path folder = Files.createTempDirectory("hexaflow-new-database");
        try {
            H2Database.migratedWithoutNewFile(folder).closeCompacted();
            Files.createDirectories(target.toAbsolutePath().getParent());
            Files.copy(folder.resolve(FILE_NAME), target, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            deleteTree(folder);
        }
    }

    private static void deleteTree(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
