package dev.hexaflow.adapters.persistence.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * One pass over an archive's entries: counts every byte as it is unpacked, each entry against the size it is
 * allowed and all of them against the archive's budget ({@link ZipBackupArchive.Limits}), and stops at the first
 * byte past either. The zip's headers are never asked how large an entry is.
 */
final class ArchiveInflation {

    private final long archiveSize;
    private final long budget;
    private final long maxRatio;
    private long total;

    ArchiveInflation(Path archive, ZipBackupArchive.Limits limits) throws IOException {
        this.archiveSize = Files.size(archive);
        this.budget = limits.budget(archiveSize);
        this.maxRatio = limits.maxRatio();
    }

    /** The entry's bytes, as they unpack, up to {@code allowed} of them. */
    InputStream open(ZipFile zip, ZipEntry entry, long allowed) throws IOException {
        String name = entry.getName();
        return new java.io.FilterInputStream(zip.getInputStream(entry)) {
            private long read;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                // One byte past what is allowed is enough to know: never ask for more than that.
                int n = in.read(b, off, (int) Math.min(len, Math.max(1, allowed - read + 1)));
                if (n > 0) {
                    read += n;
                    total += n;
                    if (read > allowed) {
                        throw new BoundExceededException(name + " unpacks to more than the " + allowed
                                + " bytes its manifest lists");
                    }
                    if (total > budget) {
                        throw new BoundExceededException("it unpacks to more than "
                                + ZipBackupArchive.megabytes(budget) + ", " + maxRatio + " times its own "
                                + ZipBackupArchive.megabytes(archiveSize)
                                + " and more than a backup compresses (a zip bomb?)");
                    }
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                // Skipped bytes are unpacked all the same: counted like the rest.
                byte[] skipped = new byte[(int) Math.min(Math.max(n, 0), 8192)];
                return Math.max(read(skipped, 0, skipped.length), 0);
            }
        };
    }

    /** An archive that unpacks past what it may: refused as unsafe, not as damaged. */
    static final class BoundExceededException extends IOException {
        BoundExceededException(String message) {
            super(message);
        }
    }
}
