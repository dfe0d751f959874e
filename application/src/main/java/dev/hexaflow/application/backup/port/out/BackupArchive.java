package dev.hexaflow.application.backup.port.out;

import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;

/** The backup file's format: writes entries with their checksums, reads them back, unpacks them into a directory. */
public interface BackupArchive {

    /** Starts an archive on {@code target}; entries follow one by one, the manifest last. */
    Writer create(OutputStream target);

    /**
     * Reads the archive whole: its manifest and every other file's size and SHA-256 as found.
     *
     * @throws UnreadableArchiveException when it is not a complete archive of this kind
     */
    Read read(Path archive);

    /**
     * Fails when {@code directory} exists and holds anything.
     *
     * @throws TargetNotEmptyException when it does
     */
    void requireEmpty(Path directory);

    /**
     * Writes the archive's files into {@code directory} (made if absent) with owner-only permissions; on failure
     * removes what it wrote.
     */
    void extract(Path archive, Path directory);

    /** Writes one archive. */
    interface Writer {

        /** Adds an entry with what {@code content} writes; answers its size and checksum. */
        BackupEntry add(String name, Content content);

        /** Adds an entry with the stream's bytes; answers its size and checksum. */
        default BackupEntry add(String name, InputStream content) {
            return add(name, out -> content.transferTo(out));
        }

        /** Writes the manifest and ends the archive; the target stays open. */
        void finish(BackupManifest manifest);
    }

    /** Writes an entry's bytes. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** An archive as read: its manifest, and the other files as found. */
    record Read(BackupManifest manifest, Map<String, BackupEntry> found) {
        public Read {
            found = Map.copyOf(found);
        }
    }

    /** Not a complete backup archive: cut off, of another kind, or without a readable manifest. */
    class UnreadableArchiveException extends RuntimeException {
        public UnreadableArchiveException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The directory to restore into holds files already. */
    class TargetNotEmptyException extends RuntimeException {
        public TargetNotEmptyException(String message) {
            super(message);
        }
    }
}
