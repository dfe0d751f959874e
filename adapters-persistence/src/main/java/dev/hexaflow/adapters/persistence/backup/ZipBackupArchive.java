package dev.hexaflow.adapters.persistence.backup;

import dev.hexaflow.adapters.persistence.OwnerOnlyFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.application.backup.port.out.BackupArchive;
import dev.hexaflow.domain.backup.BackupEntry;
import dev.hexaflow.domain.backup.BackupManifest;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A backup as a zip: the data directory's files under their own relative names, and {@code manifest.json} last.
 * Read back through the zip's central directory, which sits at its very end: an archive cut off anywhere lacks it
 * and does not open at all, and every entry is read whole (the zip's own CRC, then the manifest's SHA-256) before
 * anything is written. The sizes in the zip's headers are never trusted: every entry is counted as it unpacks,
 * against the size its manifest lists and against {@link Limits}, and reading stops at the first byte past them.
 */
public final class ZipBackupArchive implements BackupArchive {

    static final String FORMAT = "hexaflow-backup";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(ZipBackupArchive.class);
    /** The manifest lists every file with its checksum: some hundred bytes each. */
    private static final long MAX_MANIFEST = 16L << 20;

    private final Limits limits;

    /** With {@link Limits#DEFAULTS}. */
    public ZipBackupArchive() {
        this(Limits.DEFAULTS);
    }

    public ZipBackupArchive(Limits limits) {
        this.limits = limits;
    }

    /**
     * How far reading an archive may go, against one made to unpack to far more than it holds (a zip bomb: a 2 MB
     * zip of zeros unpacks to 2 GB). Every file is also held to the size its manifest lists, but the manifest is the
     * archive's own word, so the archive as a whole may unpack to no more than {@code maxRatio} times its own size
     * plus {@code allowance}, counted as it unpacks, whatever its zip headers say.
     *
     * @param maxRatio   how many times its own size an archive may unpack to, past {@code allowance}; a backup's
     *                   database and files compress 3 to 20 times
     * @param allowance  what any archive may unpack to, however small it is
     * @param maxEntries how many entries an archive may hold (its manifest lists each one as well)
     * @param keepFree   the room a restore leaves free where it writes, as the server wants to find it
     */
    public record Limits(long maxRatio, long allowance, int maxEntries, long keepFree) {

        public static final Limits DEFAULTS = new Limits(100, 64L << 20, 1_000_000, 64L << 20);

        public Limits {
            if (maxRatio < 1 || allowance < 0 || maxEntries < 1 || keepFree < 0) {
                throw new IllegalArgumentException("backup limits must be positive: " + maxRatio + ", " + allowance
                        + ", " + maxEntries + ", " + keepFree);
            }
        }

        public Limits withMaxRatio(long ratio) {
            return new Limits(ratio, allowance, maxEntries, keepFree);
        }

        /** What an archive of {@code archiveSize} bytes may unpack to in all. */
        long budget(long archiveSize) {
            long scaled = archiveSize > Long.MAX_VALUE / maxRatio ? Long.MAX_VALUE : archiveSize * maxRatio;
            return saturatedAdd(scaled, allowance);
        }
    }

    @Override
    public Writer create(OutputStream target) {
        ZipOutputStream zip = new ZipOutputStream(new FilterOutputStream(target) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                // The target belongs to the caller.
                out.flush();
            }
        });
        // The database compresses well and fast at the lowest level; a higher one costs time for little.
        zip.setLevel(Deflater.BEST_SPEED);
        return new ZipBackupWriter(zip);
    }

    @Override
    public Read read(Path archive) {
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            refusePastEntryCount(archive, zip);
            ZipEntry manifestEntry = null;
            Set<String> names = new HashSet<>();
            for (ZipEntry entry : Collections.list(zip.entries())) {
                String name = entry.getName();
                if (name.equals(BackupManifest.FILE_NAME)) {
                    if (manifestEntry != null) {
                        throw unreadable(archive, "it holds two manifests", null);
                    }
                    manifestEntry = entry;
                } else if (!BackupEntry.isDataFile(name)) {
                    throw unreadable(archive, "it holds " + name + ", which is no file of a Hexaflow data directory",
                            null);
                } else if (!names.add(name)) {
                    throw unreadable(archive, "it holds " + name + " twice", null);
                }
            }
            if (manifestEntry == null) {
                throw unreadable(archive, "it has no " + BackupManifest.FILE_NAME + ": not a Hexaflow backup", null);
            }
            ArchiveInflation inflation = new ArchiveInflation(archive, limits);
            BackupManifest manifest;
            try (InputStream in = inflation.open(zip, manifestEntry, MAX_MANIFEST)) {
                manifest = fromJson(archive, JSON.readTree(in));
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                throw unreadable(archive, "its manifest is not JSON", e);
            }
            Map<String, Long> listed = new HashMap<>();
            manifest.entries().forEach(entry -> listed.put(entry.name(), entry.size()));
            Map<String, BackupEntry> found = new HashMap<>();
            for (ZipEntry entry : Collections.list(zip.entries())) {
                String name = entry.getName();
                if (name.equals(BackupManifest.FILE_NAME)) {
                    continue;
                }
                Long size = listed.get(name);
                if (size == null) {
                    throw unreadable(archive, name + " is in the archive but not in its manifest", null);
                }
                found.put(name, digest(zip, entry, inflation, size));
            }
            return new Read(manifest, found);
        } catch (ArchiveInflation.BoundExceededException e) {
            throw refusedForSafety(archive, e);
        } catch (java.util.zip.ZipException e) {
            throw unreadable(archive, "it is not a complete zip file (cut off, damaged, or not a zip): "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw unreadable(archive, "it cannot be read: " + e.getMessage(), e);
        }
    }

    private void refusePastEntryCount(Path archive, ZipFile zip) {
        if (zip.size() > limits.maxEntries()) {
            throw refusedForSafety(archive, new ArchiveInflation.BoundExceededException("it holds " + zip.size()
                    + " entries, more than the " + limits.maxEntries() + " a backup may hold"));
        }
    }

    private static BackupEntry digest(ZipFile zip, ZipEntry entry, ArchiveInflation inflation, long listedSize)
            throws IOException {
        MessageDigest sha = sha256();
        long size = 0;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = inflation.open(zip, entry, listedSize)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                sha.update(buffer, 0, n);
                size += n;
            }
        }
        return new BackupEntry(entry.getName(), size, HexFormat.of().formatHex(sha.digest()));
    }

    @Override
    public InputStream open(Path archive, BackupEntry listed) {
        ZipFile zip = null;
        try {
            zip = new ZipFile(archive.toFile());
            refusePastEntryCount(archive, zip);
            ZipEntry entry = zip.getEntry(listed.name());
            if (entry == null) {
                throw unreadable(archive, "it holds no " + listed.name(), null);
            }
            return new CheckedEntry(zip, new ArchiveInflation(archive, limits).open(zip, entry, listed.size()), listed);
        } catch (IOException e) {
            closeQuietly(zip);
            throw unreadable(archive, "it cannot be read: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(zip);
            throw e;
        }
    }

    private static void closeQuietly(ZipFile zip) {
        if (zip != null) {
            try {
                zip.close();
            } catch (IOException ignored) {
                // Only read: nothing is lost.
            }
        }
    }

    private static UnreadableArchiveException unreadable(Path archive, String why, Throwable cause) {
        return new UnreadableArchiveException(archive.getFileName() + " is not a Hexaflow backup to restore: " + why,
                cause);
    }

    @Override
    public void requireEmpty(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        if (!Files.isDirectory(directory)) {
            throw new TargetNotEmptyException(directory + " is a file, not a directory to restore into");
        }
        try (Stream<Path> files = Files.list(directory)) {
            if (files.findAny().isPresent()) {
                throw new TargetNotEmptyException(directory + " is not empty: restore into an empty or new "
                        + "directory, so that nothing there is overwritten or mixed in");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + directory, e);
        }
    }

    @Override
    public void extract(Path archive, BackupManifest manifest, Path directory) {
        requireEmpty(directory);
        requireRoom(manifest, directory);
        Map<String, BackupEntry> listed = new HashMap<>();
        manifest.entries().forEach(entry -> listed.put(entry.name(), entry));
        Deque<Path> written = new ArrayDeque<>();
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            refusePastEntryCount(archive, zip);
            if (!Files.exists(directory)) {
                Files.createDirectories(directory);
                written.push(directory);
            }
            ownerOnly(directory, "rwx------");
            ArchiveInflation inflation = new ArchiveInflation(archive, limits);
            Iterator<? extends ZipEntry> entries = zip.entries().asIterator();
            while (entries.hasNext()) {
                ZipEntry entry = entries.next();
                if (entry.getName().equals(BackupManifest.FILE_NAME)) {
                    continue;
                }
                BackupEntry expected = listed.get(entry.getName());
                if (expected == null || !BackupEntry.isDataFile(entry.getName())) {
                    throw new IOException(entry.getName() + " is not in the manifest checked");
                }
                Path file = directory.resolve(expected.name());
                Path parent = file.getParent();
                if (!Files.exists(parent)) {
                    Files.createDirectory(parent);
                    written.push(parent);
                    ownerOnly(parent, "rwx------");
                }
                OutputStream out = OwnerOnlyFiles.createFile(file);
                written.push(file);
                // The zip stays open for the next entry: closed once every entry is written.
                try (out; InputStream in = new CheckedEntry(null, inflation.open(zip, entry, expected.size()),
                        expected)) {
                    in.transferTo(out);
                }
            }
        } catch (IOException e) {
            for (Path path : written) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // Best effort: the message below names the directory.
                }
            }
            if (e instanceof ArchiveInflation.BoundExceededException bound) {
                throw refusedForSafety(archive, bound);
            }
            throw new UncheckedIOException("cannot restore into " + directory + ": " + e.getMessage(), e);
        }
    }

    /**
     * Refuses, before anything is written, files that would leave less than {@link Limits#keepFree()} free on the
     * file system they go to (as their manifest lists their sizes; unpacking stops at those sizes).
     */
    private void requireRoom(BackupManifest manifest, Path directory) {
        long needed = 0;
        for (BackupEntry entry : manifest.entries()) {
            needed = saturatedAdd(needed, entry.size());
        }
        long free = usableSpace(directory);
        if (saturatedAdd(needed, limits.keepFree()) > free) {
            throw new NoRoomException("the backup's files take " + megabytes(needed) + " and " + directory
                    + " has " + megabytes(free) + " free, of which " + megabytes(limits.keepFree())
                    + " must stay free: make room or restore elsewhere");
        }
    }

    /** The usable space of the file system {@code path} is on, or would be on once made. */
    static long usableSpace(Path path) {
        Path existing = path.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        try {
            return existing == null ? Long.MAX_VALUE : Files.getFileStore(existing).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the free space of " + existing, e);
        }
    }

    static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private UnreadableArchiveException refusedForSafety(Path archive, ArchiveInflation.BoundExceededException e) {
        LOG.warn("Refused the backup {} for safety: {}", archive.getFileName(), e.getMessage());
        return unreadable(archive, e.getMessage(), e);
    }

    private static void ownerOnly(Path path, String mode) throws IOException {
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system (Windows): the directory's own permissions protect the files.
        }
    }

    private static BackupManifest fromJson(Path archive, JsonNode node) {
        if (node == null || !FORMAT.equals(node.path("format").asText())) {
            throw unreadable(archive, "its " + BackupManifest.FILE_NAME + " is not a Hexaflow backup's", null);
        }
        try {
            Map<String, Long> counts = new LinkedHashMap<>();
            node.path("counts").fields().forEachRemaining(count -> counts.put(count.getKey(), count.getValue()
                    .asLong()));
            List<BackupEntry> entries = new ArrayList<>();
            for (JsonNode entry : node.path("entries")) {
                entries.add(new BackupEntry(entry.path("name").asText(null), entry.path("size").asLong(-1),
                        entry.path("sha256").asText(null)));
            }
            return new BackupManifest(node.path("format_version").asInt(0), node.path("hexaflow_version").asText(null),
                    node.path("schema_version").asInt(0), node.path("created_at").asLong(), counts, entries);
        } catch (IllegalArgumentException e) {
            throw unreadable(archive, "its manifest is damaged: " + e.getMessage(), e);
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
