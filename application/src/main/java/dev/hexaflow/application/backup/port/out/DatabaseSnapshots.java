package dev.hexaflow.application.backup.port.out;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/** Takes consistent copies of the live database and reads what a copy holds. */
public interface DatabaseSnapshots {

    /** Writes a consistent copy of the live database file to {@code target}, taken while it serves; answers what
     * the copy holds. */
    Contents take(OutputStream target);

    /**
     * What a backup's database file holds, read from {@code database} ({@code size} bytes) without writing to any
     * data directory. A database from a backup is not trusted: before anything opens it, its storage is read for
     * what opening it would load or run as code (a trigger, an alias, a stored type naming a class, ...), and such a
     * database is refused unopened.
     *
     * @throws UnsafeDatabaseException naming what it found, when the database holds anything of that kind
     * @throws SnapshotException       when it cannot be read
     */
    Contents inspect(InputStream database, long size);

    /** The newest schema version this build's migrations make. */
    int newestSchemaVersion();

    /** What a snapshot holds: its schema version, rows by table, and the blob keys its uploads name. */
    record Contents(int schemaVersion, Map<String, Long> counts, List<String> blobKeys) {
        public Contents {
            counts = Map.copyOf(counts);
            blobKeys = List.copyOf(blobKeys);
        }
    }

    /** The database cannot be copied or read. */
    class SnapshotException extends RuntimeException {
        public SnapshotException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A database that would load or run code when opened, which no Hexaflow database does: never opened. */
    final class UnsafeDatabaseException extends SnapshotException {
        private final List<String> findings;

        /** @param findings what it holds, one line each ("trigger "PUBLIC"."T"") */
        public UnsafeDatabaseException(List<String> findings) {
            super("it holds " + String.join("; ", findings), null);
            this.findings = List.copyOf(findings);
        }

        public List<String> findings() {
            return findings;
        }
    }
}
