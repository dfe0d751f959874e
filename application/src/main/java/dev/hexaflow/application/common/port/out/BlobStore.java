package dev.hexaflow.application.common.port.out;

import java.io.InputStream;

/** Keeps file bytes under keys it makes; a blob is written whole or not at all. */
public interface BlobStore {

    /**
     * Stores the stream and answers its key and size.
     *
     * @throws TooLargeException when it holds more than {@code maxBytes}; nothing is kept then
     */
    Stored put(InputStream content, long maxBytes);

    /** The bytes under the key. */
    byte[] read(String key);

    /** Deletes the blob if it is there. */
    void delete(String key);

    /** The keys of every whole blob kept; a blob cut off while it was written is dropped, never listed. */
    java.util.List<String> keys();

    record Stored(String key, long size) {
    }

    class TooLargeException extends RuntimeException {
        public TooLargeException(long maxBytes) {
            super("more than " + maxBytes + " bytes");
        }
    }
}
