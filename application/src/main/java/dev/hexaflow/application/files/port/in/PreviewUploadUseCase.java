package dev.hexaflow.application.files.port.in;

import dev.hexaflow.application.common.ApiException;

/** Answers an upload's bytes to whoever holds its signed preview URL, while the URL lasts. */
public interface PreviewUploadUseCase {

    /** @throws ApiException FORBIDDEN for a signature this server did not make or one too old, NOT_FOUND */
    UploadContent preview(PreviewUploadQuery query);

    /**
     * An upload by its signed URL's parts: {@code /files/{id}/file-preview?timestamp=&nonce=&sign=}, as Dify's
     * {@code get_signed_file_url} makes them.
     */
    record PreviewUploadQuery(String id, String timestamp, String nonce, String sign) {
    }

    /** The upload's bytes, with the name and type it is served as. */
    record UploadContent(byte[] bytes, String name, String mimeType) {
    }
}
