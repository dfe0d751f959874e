package dev.hexaflow.application.tools.port.out;

import dev.hexaflow.domain.tool.ToolFile;
import java.util.Optional;
import java.util.Set;

/** Keeps what is known of the files tools made (their bytes are in the blob store), by id. */
public interface ToolFileRepository {

    void save(ToolFile file);

    Optional<ToolFile> find(String id);

    /** The blob keys of every tool file, so that a sweep of unnamed blobs leaves them be. */
    Set<String> blobKeys();
}
