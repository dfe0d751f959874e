package dev.hexaflow.adapters.persistence.backup;

import dev.hexaflow.adapters.persistence.OwnerOnlyFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A backup as a zip: the data directory's files under their own relative names, and {@code manifest.json} last.
 * Read back through the zip's central directory, which sits at its very end: an archive cut off anywhere lacks it
 * and does not open at all, and every entry is read whole (the zip's own CRC, then the manifest's SHA-256) before
 * anything is written.
 */
public final class ZipBackupArchive implements BackupArchive {

    static final String FORMAT = "hexaflow-backup";
    private static final ObjectMapper JSON = new ObjectMapper();

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
        return new ZipWriter(zip);
    }

    private static final class ZipWriter implements Writer {
        private final ZipOutputStream zip;

        ZipWriter(ZipOutputStream zip) {
            this.zip = zip;
        }

        @Override
        public BackupEntry add(String name, Content content) {
            try {
                zip.putNextEntry(new ZipEntry(name));
                MessageDigest sha = sha256();
                long[] size = new long[1];
                OutputStream entry = new DigestOutputStream(new FilterOutputStream(zip) {
                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                        size[0]++;
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                        size[0] += len;
                    }

                    @Override
                    public void close() {
                        // Ending the entry is the archive's business.
                    }
                }, sha);
                content.writeTo(entry);
                entry.flush();
                zip.closeEntry();
                return new BackupEntry(name, size[0], HexFormat.of().formatHex(sha.digest()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + name + " to the backup", e);
            }
        }

        @Override
        public void finish(BackupManifest manifest) {
            try {
                zip.putNextEntry(new ZipEntry(BackupManifest.FILE_NAME));
                zip.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(toJson(manifest)));
                zip.closeEntry();
                zip.finish();
                zip.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot end the backup", e);
            }
        }
    }

    @Override
    public Read read(Path archive) {
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            BackupManifest manifest = null;
            Map<String, BackupEntry> found = new HashMap<>();
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (name.equals(BackupManifest.FILE_NAME)) {
                    if (manifest != null) {
                        throw unreadable(archive, "it holds two manifests", null);
                    }
                    try (InputStream in = zip.getInputStream(entry)) {
                        manifest = fromJson(archive, JSON.readTree(in.readNBytes(1 << 24)));
                    } catch (com.fasterxml.jackson.core.JacksonException e) {
                        throw unreadable(archive, "its manifest is not JSON", e);
                    }
                } else if (!BackupEntry.isDataFile(name)) {
                    throw unreadable(archive, "it holds " + name + ", which is no file of a Hexaflow data directory",
                            null);
                } else if (found.put(name, digest(zip, entry)) != null) {
                    throw unreadable(archive, "it holds " + name + " twice", null);
                }
            }
            if (manifest == null) {
                throw unreadable(archive, "it has no " + BackupManifest.FILE_NAME + ": not a Hexaflow backup", null);
            }
            return new Read(manifest, found);
        } catch (java.util.zip.ZipException e) {
            throw unreadable(archive, "it is not a complete zip file (cut off, damaged, or not a zip): "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw unreadable(archive, "it cannot be read: " + e.getMessage(), e);
        }
    }

    private static BackupEntry digest(ZipFile zip, ZipEntry entry) throws IOException {
        MessageDigest sha = sha256();
        long size = 0;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = zip.getInputStream(entry)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                sha.update(buffer, 0, n);
                size += n;
            }
        }
        return new BackupEntry(entry.getName(), size, HexFormat.of().formatHex(sha.digest()));
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
    public void extract(Path archive, Path directory) {
        requireEmpty(directory);
        Deque<Path> written = new ArrayDeque<>();
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            if (!Files.exists(directory)) {
                Files.createDirectories(directory);
                written.push(directory);
            }
            ownerOnly(directory, "rwx------");
            Iterator<? extends ZipEntry> entries = zip.entries().asIterator();
            while (entries.hasNext()) {
                ZipEntry entry = entries.next();
                if (!BackupEntry.isDataFile(entry.getName())) {
                    continue;
                }
                Path file = directory.resolve(entry.getName());
                Path parent = file.getParent();
                if (!Files.exists(parent)) {
                    Files.createDirectory(parent);
                    written.push(parent);
                    ownerOnly(parent, "rwx------");
                }
                OutputStream out = OwnerOnlyFiles.createFile(file);
                written.push(file);
                try (out; InputStream in = zip.getInputStream(entry)) {
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
            throw new UncheckedIOException("cannot restore into " + directory + ": " + e.getMessage(), e);
        }
    }

    private static void ownerOnly(Path path, String mode) throws IOException {
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system (Windows): the directory's own permissions protect the files.
        }
    }

    private static ObjectNode toJson(BackupManifest manifest) {
        ObjectNode node = JSON.createObjectNode();
        node.put("format", FORMAT);
        node.put("format_version", manifest.formatVersion());
        node.put("hexaflow_version", manifest.hexaflowVersion());
        node.put("schema_version", manifest.schemaVersion());
        node.put("created_at", manifest.createdAt());
        ObjectNode counts = node.putObject("counts");
        manifest.counts().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(count -> counts.put(count.getKey(), count.getValue()));
        ArrayNode entries = node.putArray("entries");
        for (BackupEntry entry : manifest.entries()) {
            entries.addObject().put("name", entry.name()).put("size", entry.size()).put("sha256", entry.sha256());
        }
        return node;
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

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
