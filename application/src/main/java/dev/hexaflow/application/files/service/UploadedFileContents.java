package dev.hexaflow.application.files.service;

import dev.hexaflow.application.common.port.out.BlobStore;
import dev.hexaflow.application.files.port.out.UploadRepository;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents;

/** Uploaded files from the blob store, and every other file from where the next source fetches it. */
public final class UploadedFileContents implements FileContents {

    private final UploadRepository uploads;
    private final BlobStore blobs;
    private final FileContents otherwise;

    public UploadedFileContents(UploadRepository uploads, BlobStore blobs, FileContents otherwise) {
        this.uploads = uploads;
        this.blobs = blobs;
        this.otherwise = otherwise;
    }

    @Override
    public byte[] read(FileValue file, StopSignal stop) {
        if (!"local_file".equals(file.transferMethod())) {
            return otherwise.read(file, stop);
        }
        String id = file.relatedId() != null ? file.relatedId() : file.id();
        return uploads.find(id).map(upload -> blobs.read(upload.blobKey()))
                .orElseThrow(() -> new FileException("the upload " + id + " is not kept on this server", null));
    }
}
