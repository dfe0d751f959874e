package dev.hexaflow.application.files.port.in;

import dev.hexaflow.application.common.ApiException;
import dev.hexaflow.domain.app.UploadedFile;
import java.io.InputStream;

/** Keeps a file for an app's end user, to be used as an input by that user. */
public interface UploadFileUseCase {

    /**
     * Checks the upload in Dify's order, then keeps it whole or not at all.
     *
     * @throws ApiException with Dify's code for each refusal; nothing is left behind
     */
    UploadedFile upload(UploadFileCommand command);

    /**
     * What the multipart request held.
     *
     * @param fileParts how many {@code file} parts came (Dify takes exactly one)
     * @param fromPage  whether a web page's visitor sent it (with the page's token), whose uploads are bound
     */
    record UploadFileCommand(String appId, String user, int fileParts, String filename, String mimeType,
            InputStream content, boolean fromPage) {
    }
}
