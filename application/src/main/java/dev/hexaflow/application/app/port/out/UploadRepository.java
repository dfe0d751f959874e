package dev.hexaflow.application.app.port.out;

import dev.hexaflow.domain.app.UploadedFile;
import java.util.Optional;
import java.util.Set;

/** Keeps the records of uploaded files; their bytes are in the {@link BlobStore}. */
public interface UploadRepository {

    void add(UploadedFile file);

    Optional<UploadedFile> find(String id);

    /** The blobs that upload records name, all of them: read once at start to find blobs no record names. */
    Set<String> blobKeys();
}
