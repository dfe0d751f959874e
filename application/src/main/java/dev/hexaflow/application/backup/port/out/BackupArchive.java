package dev.hexaflow.application.backup.port.out;

import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * The backup file's format: writes entries with their checksums, reads them back, unpacks them into a directory.
 * Reading never trusts what the file says of its own sizes: every entry is counted as it unpacks, and none may unpack
 * past the size its manifest declares, nor the archive as a whole past a bound set by its own size.
 */
public interface BackupArchive {

    /** Starts an archive on {@code target}; entries follow one by one, the manifest last. */
    Writer create(OutputStream target);

    /**
     * Reads the archive whole: its manifest and every other file's size and SHA-256 as found. Only files its
     * manifest lists are read, each no further than the size listed.
     *
     * @throws UnreadableArchiveException when it is not a complete archive of this kind, or unpacks to more than it
     *                                    may
     */
    Read read(Path archive);

    /**
     * One listed file's bytes, read no further than its listed size; the stream fails (an {@code IOException}) when
     * the bytes turn out other than listed, at the latest when it reaches their end.
     *
     * @throws UnreadableArchiveException when the archive cannot be opened or does not hold the file
     */
    InputStream open(Path archive, BackupEntry entry);

    /**
     * Fails when {@code directory} exists and holds anything.
     *
     * @throws TargetNotEmptyException when it does
     */
    void requireEmpty(Path directory);

    /**
     * Writes the files {@code manifest} lists into {@code directory} (made if absent) with owner-only permissions,
     * each checked against its size and checksum as it is written; on failure removes what it wrote.
     *
     * @throws NoRoomException before writing anything, when the files would leave too little room where they go
     */
    void extract(Path archive, BackupManifest manifest, Path directory);

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

    /** The files to restore would not fit where they go. */
    class NoRoomException extends RuntimeException {
        public NoRoomException(String message) {
            super(message);
        }
    }

    /** The directory to restore into holds files already. */
    class TargetNotEmptyException extends RuntimeException {
        public TargetNotEmptyException(String message) {
            super(message);
        }
    }
}
