package dev.hexaflow.app.wiring;

import dev.hexaflow.adapters.persistence.FileSystemBlobStore;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolFileRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiUploadRepository;
import dev.hexaflow.app.adapters.HmacSigner;
import dev.hexaflow.app.config.Configuration;
import dev.hexaflow.application.apps.port.out.EndUserRepository;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.port.out.SecretGenerator;
import dev.hexaflow.application.common.port.out.StorageHealth;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase;
import dev.hexaflow.application.files.port.in.UploadFileUseCase;
import dev.hexaflow.application.files.service.PreviewUploadService;
import dev.hexaflow.application.files.service.UploadFileService;
import dev.hexaflow.application.files.service.UploadedFileContents;
import dev.hexaflow.application.tools.service.ToolFileService;
import dev.hexaflow.domain.id.TimeOrderedIds;
import dev.hexaflow.workflow.port.out.FileContents;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;

/**
 * The files context on the blob store and Jdbi: uploads, their previews and the files tools answer, with the
 * signatures of their URLs. The engine reads an upload through {@link #contents(FileContents)}.
 */
public final class FilesModule {

    /** How old a blob without a record must be before a start deletes it, where instances share the files. */
    static final Duration SHARED_BLOB_GRACE = Duration.ofHours(1);

    public final UploadFileUseCase upload;
    public final PreviewUploadUseCase previewUpload;
    public final ToolFileService toolFiles;
    /** Signs the URLs of tool files and of uploads; the chat module signs its messages' files with it. */
    public final FileSignatures fileSignatures;
    final JdbiUploadRepository uploads;
    private final FileSystemBlobStore blobStore;
    private final JdbiToolFileRepository toolFileRecords;
    private final Instance instance;
    private final Clock clock;

    FilesModule(Jdbi jdbi, Path blobs, SecretGenerator secrets, Configuration config, Clock clock, Instance instance,
            StorageHealth storage, EndUserRepository endUsers) {
        this.uploads = new JdbiUploadRepository(jdbi);
        this.blobStore = new FileSystemBlobStore(blobs);
        this.toolFileRecords = new JdbiToolFileRepository(jdbi);
        this.instance = instance;
        this.clock = clock;
        this.fileSignatures = new FileSignatures(HmacSigner.of("file_urls", instance, jdbi), secrets, clock);
        this.toolFiles = new ToolFileService(blobStore, toolFileRecords, fileSignatures, clock,
                () -> UUID.randomUUID().toString());
        this.previewUpload = new PreviewUploadService(uploads, blobStore, fileSignatures);
        this.upload = new UploadFileService(uploads, endUsers, blobStore, config.service().uploads(),
                config.service().pageUploads(), clock, new TimeOrderedIds(), storage);
    }

    /** The engine's file reader: an upload of this server from its blob, any other file from {@code remote}. */
    FileContents contents(FileContents remote) {
        return new UploadedFileContents(uploads, blobStore, remote);
    }

    /**
     * Deletes blobs no upload or tool file names: one cut off between its blob and its record (a crash) leaves
     * only a blob, which no one can reach. Answers how many it deleted.
     */
    public int deleteOrphanBlobs() {
        int deleted = 0;
        // Where instances share the files, a newer blob may be another instance's upload whose record is on its way.
        Instant before = instance.shared() ? clock.instant().minus(SHARED_BLOB_GRACE) : Instant.MAX;
        List<String> blobs = blobStore.keys(before);
        Set<String> named = new HashSet<>(uploads.blobKeys());
        named.addAll(toolFileRecords.blobKeys());
        for (String key : blobs) {
            if (!named.contains(key)) {
                blobStore.delete(key);
                deleted++;
            }
        }
        return deleted;
    }
}
