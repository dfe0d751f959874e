package dev.hexaflow.application.common;

/**
 * The store cannot keep a write now: its disk is nearly full, or writes to it are failing. Both sides of the
 * application know it: the store's adapters throw it, the API's adapters answer it (507, and the probes' reason).
 */
public final class StorageUnavailableException extends RuntimeException {

    /** Why the store takes no writes, with the word probes and logs give for it. */
    public enum Kind {
        /** Free space is below the threshold: new runs, uploads and knowledge writes wait until there is more. */
        DISK_LOW("disk_low"),
        /** A write failed (the disk is full, or the database closed itself): nothing is written until recovery. */
        WRITES_FAILING("writes_failing");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    private final Kind kind;

    public StorageUnavailableException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    /** As {@link #StorageUnavailableException(Kind, String)}, with the failure of the store that caused it. */
    public StorageUnavailableException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
