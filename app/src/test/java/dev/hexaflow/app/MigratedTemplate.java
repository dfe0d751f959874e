package dev.hexaflow.app;

import dev.hexaflow.app.wiring.Storage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An empty H2 database migrated once per test JVM, copied into each new data directory a test server starts on.
 * Migrating an empty database is most of a test server's start (hundreds of DDL statements, each committed to the
 * file), and four hundred servers start in the suite; the copy is the same database the server would make, so the
 * server's start goes on as over any data directory made before, and migrates nothing. First starts themselves are
 * tested where they matter: the storage and migration tests, the servers started without this class and the jar's.
 */
final class MigratedTemplate {

    private static final String DATABASE = "hexaflow.mv.db";
    private static Path template;

    private MigratedTemplate() {
    }

    /** Copies the template into {@code dataDir} when it holds no database yet (made if it is missing). */
    static void seed(Path dataDir) {
        try {
            Path database = dataDir.resolve(DATABASE);
            if (Files.exists(database)) {
                return;
            }
            Files.createDirectories(dataDir);
            Files.copy(template(), database);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized Path template() throws IOException {
        if (template == null) {
            Path folder = Files.createTempDirectory("hexaflow-template");
            // Deleted at exit in the reverse order of these calls: the folder's files first, then the folder.
            folder.toFile().deleteOnExit();
            try (Storage storage = Storage.connect(folder)) {
                storage.migrate();
            }
            try (var files = Files.list(folder)) {
                files.forEach(file -> file.toFile().deleteOnExit());
            }
            template = folder.resolve(DATABASE);
        }
        return template;
    }
}
