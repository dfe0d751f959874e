package dev.hexaflow.domain.app;

/** Upload size limits per category, in megabytes: Dify's 10 for images, 100 video, 50 audio, 15 the rest. */
public record UploadLimits(int imageMb, int videoMb, int audioMb, int fileMb) {

    public static final UploadLimits DIFY = new UploadLimits(10, 100, 50, 15);

    public UploadLimits {
        if (imageMb < 1 || videoMb < 1 || audioMb < 1 || fileMb < 1) {
            throw new IllegalArgumentException("upload limits must be at least 1 MB");
        }
    }

    public long maxBytes(FileCategory category) {
        int mb = switch (category) {
            case IMAGE -> imageMb;
            case VIDEO -> videoMb;
            case AUDIO -> audioMb;
            default -> fileMb;
        };
        return mb * 1024L * 1024L;
    }

    /** The largest of the limits: no upload may be larger, whatever its kind. */
    public long largestBytes() {
        return Math.max(Math.max(imageMb, videoMb), Math.max(audioMb, fileMb)) * 1024L * 1024L;
    }
}
