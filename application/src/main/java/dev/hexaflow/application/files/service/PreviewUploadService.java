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
 * signature that is wrong or too old.
 */
public final class PreviewUploadService implements PreviewUploadUseCase {

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
        return new UploadContent(blobs.read(file.blobKey()), file.name(), file.mimeType());
    }
}
