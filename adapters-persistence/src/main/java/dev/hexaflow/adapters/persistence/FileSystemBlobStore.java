package dev.hexaflow.adapters.persistence;

import dev.hexaflow.application.common.StorageUnavailableException;
import dev.hexaflow.application.common.port.out.BlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Blobs as files under {@code <data dir>/files}, named by random ids, never by anything a client sent. A blob is
 * written to a temporary file first and moved into place whole, so a blob is there complete or not at all. The
 * folder and its files are its owner's only.
 */
public final class FileSystemBlobStore implements BlobStore {

    private static final Pattern KEY = Pattern.compile("[0-9a-f]{32}");

    private final Path root;

    public FileSystemBlobStore(Path root) {
        this.root = root;
        try {
            OwnerOnlyFiles.createFolder(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the blob directory " + root, e);
        }
    }

    @Override
    public Stored put(InputStream content, long maxBytes) {
        String key = UUID.randomUUID().toString().replace("-", "");
        Path temporary = root.resolve(key + ".part");
        long size = 0;
        try {
            try (OutputStream out = OwnerOnlyFiles.createFile(temporary)) {
                byte[] buffer = new byte[64 * 1024];
                int n;
                while ((n = content.read(buffer)) > 0) {
                    size += n;
                    if (size > maxBytes) {
                        throw new TooLargeException(maxBytes);
                    }
                    out.write(buffer, 0, n);
                }
            }
            Files.move(temporary, root.resolve(key), StandardCopyOption.ATOMIC_MOVE);
            return new Stored(key, size);
        } catch (IOException e) {
            deleteQuietly(temporary);
            if (diskFull(e)) {
                throw new StorageUnavailableException(StorageUnavailableException.Kind.WRITES_FAILING,
                        "The server cannot keep the upload: its disk is full (" + e.getMessage() + "). Please try "
                                + "again later.");
            }
            throw new UncheckedIOException("cannot keep the upload", e);
        } catch (RuntimeException e) {
            deleteQuietly(temporary);
            throw e;
        }
    }

    /** The file system's own words for no room (Linux's strerror), as against a client whose body broke off. */
    private static boolean diskFull(IOException e) {
        String message = e.getMessage();
        return message != null && (message.contains("No space left on device")
                || message.contains("Disk quota exceeded"));
    }

    @Override
    public byte[] read(String key) {
        try {
            return Files.readAllBytes(path(key));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read blob " + key, e);
        }
    }

    @Override
    public void delete(String key) {
        deleteQuietly(path(key));
    }

    private static boolean writtenBefore(Path file, java.time.Instant before) {
        try {
            return Files.getLastModifiedTime(file).toInstant().isBefore(before);
        } catch (IOException e) {
            return false; // gone already, or not ours to judge
        }
    }

    @Override
    public java.util.List<String> keys() {
        return keys(java.time.Instant.MAX);
    }

    /**
     * The keys of the blobs last written before {@code before}, deleting the partial files of uploads cut off
     * before it: where several instances share the directory, a newer file may be another instance's upload under
     * way, whose record is not kept yet.
     */
    public java.util.List<String> keys(java.time.Instant before) {
        try (java.util.stream.Stream<Path> files = Files.list(root)) {
            java.util.List<String> keys = new java.util.ArrayList<>();
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (!before.equals(java.time.Instant.MAX) && !writtenBefore(file, before)) {
                    continue;
                }
                if (name.endsWith(".part")) {
                    deleteQuietly(file);
                } else if (KEY.matcher(name).matches()) {
                    keys.add(name);
                }
            }
            return keys;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the blob directory " + root, e);
        }
    }

    /** The blob's file, for a key of the store's own form only: a key never names a path of its choosing. */
    public Path path(String key) {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("not a blob key: " + key);
        }
        return root.resolve(key);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // What cannot be deleted now is left as a .part file, never read as a blob.
        }
    }
}
