package dev.hexaflow.application.files.port.out;

import dev.hexaflow.domain.app.UploadedFile;
import java.util.Optional;
import java.util.Set;

/** Keeps the records of uploaded files; their bytes are in the {@link BlobStore}. */
public interface UploadRepository {

    void add(UploadedFile file);

    Optional<UploadedFile> find(String id);

    /** The blobs that upload records name, all of them: read once at start to find blobs no record names. */
    Set<String> blobKeys();

    /**
     * How many uploads of the app were made at {@code since} (Unix seconds) or after, and their bytes: by one end
     * user ({@code endUserId}, an end user's id), or by all of them (null).
     */
    Usage usedSince(String appId, String endUserId, long since);

    /** A number of uploads and their bytes together. */
    record Usage(long count, long bytes) {
    }
}
