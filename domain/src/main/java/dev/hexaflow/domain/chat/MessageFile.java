package dev.hexaflow.domain.chat;

/**
 * A file of a message, as Dify's message_files list it: sent by the user with the query ({@code belongsTo}
 * "user") or made by the app in its answer ("assistant").
 *
 * @param type          Dify's file type: image, document, audio, video, custom
 * @param transferMethod local_file, remote_url or tool_file
 * @param uploadFileId  the upload it came from, or null
 */
public record MessageFile(String id, String filename, String type, String url, String mimeType, long size,
        String transferMethod, String belongsTo, String uploadFileId) {

    public MessageFile {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("a message file needs an id");
        }
        if (!"user".equals(belongsTo) && !"assistant".equals(belongsTo)) {
            throw new IllegalArgumentException("a message file belongs to user or assistant, was '" + belongsTo
                    + "'");
        }
        filename = filename == null ? "" : filename;
        type = type == null ? "custom" : type;
        url = url == null ? "" : url;
        mimeType = mimeType == null ? "" : mimeType;
        transferMethod = transferMethod == null ? "local_file" : transferMethod;
    }

    /** The same file shown at another URL (a freshly signed one). */
    public MessageFile withUrl(String shownAt) {
        return new MessageFile(id, filename, type, shownAt, mimeType, size, transferMethod, belongsTo, uploadFileId);
    }
}
