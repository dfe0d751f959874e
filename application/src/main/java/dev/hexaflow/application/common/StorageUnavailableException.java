package dev.hexaflow.application.common;

/**
 * The store cannot take the work now: its disk is nearly full, writes to it are failing, or its database server
 * cannot be reached. Both sides of the application know it: the store's adapters throw it (or recognize it behind a
 * failure), the API's adapters answer it (507, or 503 for a database out of reach, and the probes' reason).
 */
public final class StorageUnavailableException extends RuntimeException {

    /** Why the store takes no writes, with the word probes and logs give for it. */
    public enum Kind {
        /** Free space is below the threshold: new runs, uploads and knowledge writes wait until there is more. */
        DISK_LOW("disk_low"),
        /** A write failed (the disk is full, or the database closed itself): nothing is written until recovery. */
        WRITES_FAILING("writes_failing"),
        /**
         * The database server cannot be reached (it refused the connection, ended it, or is shutting down): the
         * request fails, and the next one tries again; the server recovers by itself once the database is back.
         */
        UNREACHABLE("database_unreachable");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    private final Kind kind;
    private final String detail;

    /** @param message what a client is told */
    public StorageUnavailableException(Kind kind, String message) {
        this(kind, message, message);
    }

    /**
     * @param message what a client is told
     * @param detail  what the operator's log is told: what failed, in the store's own words (no secret)
     */
    public StorageUnavailableException(Kind kind, String message, String detail) {
        super(message);
        this.kind = kind;
        this.detail = detail;
    }

    /** As {@link #StorageUnavailableException(Kind, String)}, with the failure of the store that caused it. */
    public StorageUnavailableException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.detail = message;
    }

    public Kind kind() {
        return kind;
    }

    public String detail() {
        return detail;
    }
}
