package dev.hexaflow.application.backup.port.in;

/** A backup that is not restored (or not kept), with the one line that says why. */
public final class BackupRefusedException extends RuntimeException {

    public BackupRefusedException(String reason) {
        super(reason);
    }

    public BackupRefusedException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
