package dev.hexaflow.application.files.port.in;

import dev.hexaflow.application.common.ApiException;

/**
 * Answers an upload's bytes to whoever holds its signed preview URL, while the URL lasts, and to its app's key
 * holder by its id.
 */
public interface PreviewUploadUseCase {

    /** @throws ApiException FORBIDDEN for a signature this server did not make or one too old, NOT_FOUND */
    UploadContent preview(PreviewUploadQuery query);

    /**
     * An upload of the app, as Dify's {@code GET /v1/files/{file_id}/preview} serves it to the app's key.
     *
     * @throws ApiException FILE_NOT_FOUND for an unknown upload or one whose bytes are gone, FILE_ACCESS_DENIED for
     *     another app's
     */
    UploadContent previewForApp(AppFileQuery query);

    /** An upload by its id, asked by an app. */
    record AppFileQuery(String appId, String fileId) {
    }

    /**
     * An upload by its signed URL's parts: {@code /files/{id}/file-preview?timestamp=&nonce=&sign=}, as Dify's
     * {@code get_signed_file_url} makes them.
     */
    record PreviewUploadQuery(String id, String timestamp, String nonce, String sign) {
    }

    /** The upload's bytes, with the name, type and extension (without its dot) it is served as. */
    record UploadContent(byte[] bytes, String name, String mimeType, String extension) {
    }
}
