package dev.hexaflow.application.common;

/** Where an upload is shown, as every context links to it. */
public final class FilePreviews {

    private FilePreviews() {
    }

    /** The path Dify's get_signed_file_url signs for an upload. */
    public static String path(String uploadId) {
        return "/files/" + uploadId + "/file-preview";
    }
}
