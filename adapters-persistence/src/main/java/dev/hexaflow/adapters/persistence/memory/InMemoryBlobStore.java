package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.common.port.out.BlobStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.regex.Pattern;

/**
 * Blobs as byte arrays under random keys of the same form as the file store's. A blob is put in the map only once
 * it is read whole, so a stream that breaks off or runs over the limit leaves nothing.
 */
public final class InMemoryBlobStore implements BlobStore {

    private static final Pattern KEY = Pattern.compile("[0-9a-f]{32}");

    private final ConcurrentMap<String, byte[]> blobs = new ConcurrentHashMap<>();

    @Override
    public Stored put(InputStream content, long maxBytes) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        try {
            int n;
            while ((n = content.read(buffer)) > 0) {
                if (bytes.size() + (long) n > maxBytes) {
                    throw new TooLargeException(maxBytes);
                }
                bytes.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the upload", e);
        }
        String key = UUID.randomUUID().toString().replace("-", "");
        blobs.put(key, bytes.toByteArray());
        return new Stored(key, bytes.size());
    }

    @Override
    public byte[] read(String key) {
        byte[] blob = blobs.get(checked(key));
        if (blob == null) {
            throw new IllegalStateException("no blob " + key);
        }
        return blob.clone();
    }

    @Override
    public void delete(String key) {
        blobs.remove(checked(key));
    }

    @Override
    public List<String> keys() {
        return List.copyOf(blobs.keySet());
    }

    /** Refuses what the file store refuses, so that a caller tested on memory behaves the same on files. */
    private static String checked(String key) {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("not a blob key: " + key);
        }
        return key;
    }
}
