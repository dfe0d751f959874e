package dev.hexaflow.domain.tool;

/**
 * A file a tool made (speech, an MCP server's image), kept in the blob store under {@code blobKey} and served at
 * a signed URL, as Dify's tool files are.
 *
 * @param extension with the dot, as Dify keeps it ({@code .mp3}), or empty
 */
public record ToolFile(String id, String blobKey, String name, String extension, String mimeType, long size,
        long createdAt) {

    public ToolFile {
        if (id == null || id.isBlank() || blobKey == null || blobKey.isBlank()) {
            throw new IllegalArgumentException("a tool file needs an id and a blob");
        }
        if (extension == null || !extension.isEmpty() && !extension.matches("\\.[A-Za-z0-9]{1,16}")) {
            throw new IllegalArgumentException("extension must be a dot and 1 to 16 letters or digits, or empty");
        }
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative");
        }
        name = name == null || name.isBlank() ? id + extension : name;
        mimeType = mimeType == null || mimeType.isBlank() ? "application/octet-stream" : mimeType;
    }

    /** Dify's category of the file by its MIME type: image, audio, video or document. */
    public String category() {
        return mimeType.startsWith("image/") ? "image" : mimeType.startsWith("audio/") ? "audio"
                : mimeType.startsWith("video/") ? "video" : "document";
    }
}
