package dev.hexaflow.application.app.port.out;

import dev.hexaflow.domain.app.UploadedFile;
import java.util.Optional;

/** Keeps the records of uploaded files; their bytes are in the {@link BlobStore}. */
public interface UploadRepository {

    void add(UploadedFile file);

    Optional<UploadedFile> find(String id);

    /** Whether any upload record names this blob. */
    boolean refersTo(String blobKey);
}
