package dev.hexaflow.application.backup.port.out;

import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Takes consistent copies of the live database and reads what a copy holds. */
public interface DatabaseSnapshots {

    /** Writes a consistent copy of the live database file to {@code target}, taken while it serves; answers what
     * the copy holds. */
    Contents take(OutputStream target);

    /** What the database file {@code entryName} inside a backup archive holds, read without writing anything. */
    Contents inspect(Path archive, String entryName);

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
}
