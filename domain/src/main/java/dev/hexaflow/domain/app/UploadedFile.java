package dev.hexaflow.domain.app;

/**
 * A file uploaded for an app's end user, usable as an input by that user only; its bytes are kept in the blob
 * store under {@code blobKey}.
 *
 * @param extension without the dot, as Dify answers it
 */
public record UploadedFile(String id, String appId, String endUserId, String name, long size, String extension,
        String mimeType, String blobKey, long createdAt) {

    public UploadedFile {
        if (id == null || appId == null || endUserId == null || blobKey == null) {
            throw new IllegalArgumentException("an upload needs an id, an app, an end user and a blob");
        }
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative");
        }
    }
}
