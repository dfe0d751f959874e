package dev.hexaflow.application.files.service;

import dev.hexaflow.application.common.ApiError;
import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.application.common.FileSignatures;
import dev.hexaflow.application.common.port.out.BlobStore;
import dev.hexaflow.application.files.port.in.PreviewUploadUseCase;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.domain.app.UploadedFile;

/**
 * Uploads at their signed preview URLs, as Dify's {@code /files/{id}/file-preview} serves them: the signature is
 * the key (the URLs are handed to the end user who uploaded, in their messages), and the same answer for a
 * signature that is wrong or too old. To an app's key, its own uploads by id, with Dify's file_not_found and
 * file_access_denied.
 */
public final class PreviewUploadService implements PreviewUploadUseCase {

    private static final System.Logger LOG = System.getLogger(PreviewUploadService.class.getName());

    private final UploadRepository uploads;
    private final BlobStore blobs;
    private final FileSignatures signatures;

    public PreviewUploadService(UploadRepository uploads, BlobStore blobs, FileSignatures signatures) {
        this.uploads = uploads;
        this.blobs = blobs;
        this.signatures = signatures;
    }

    @Override
    public UploadContent preview(PreviewUploadQuery query) {
        if (!signatures.valid(query.id(), query.timestamp(), query.nonce(), query.sign())) {
            throw new ApiException(ApiError.FORBIDDEN, "Invalid request.");
        }
        UploadedFile file = uploads.find(query.id()).orElseThrow(() -> new ApiException(ApiError.NOT_FOUND,
                "file is not found"));
        return new UploadContent(blobs.read(file.blobKey()), file.name(), file.mimeType(), file.extension());
    }

    /**
     * Dify serves a file a message of the app names; Hexaflow keeps which app each upload was made for, so it
     * serves any upload of the app: a chat message's, and a workflow run's input, which Dify cannot show.
     */
    @Override
    public UploadContent previewForApp(AppFileQuery query) {
        UploadedFile file = query.fileId() == null ? null : uploads.find(query.fileId()).orElse(null);
        if (file == null) {
            throw new ApiException(ApiError.FILE_NOT_FOUND, "File not found in message context");
        }
        if (!file.appId().equals(query.appId())) {
            throw new ApiException(ApiError.FILE_ACCESS_DENIED, "File access denied: not owned by requesting app");
        }
        byte[] bytes;
        try {
            bytes = blobs.read(file.blobKey());
        } catch (RuntimeException gone) {
            LOG.log(System.Logger.Level.WARNING, "The bytes of upload " + file.id() + " of app " + file.appId()
                    + " cannot be read from the blob store: " + gone);
            throw new ApiException(ApiError.FILE_NOT_FOUND, "Failed to load file content.");
        }
        return new UploadContent(bytes, file.name(), file.mimeType(), file.extension());
    }
}
