package dev.hexaflow.application.backup.port.in;

import java.io.OutputStream;
import java.util.Objects;

/** Take a backup, writing the archive to {@code target} (left open: the caller owns it). */
public record TakeBackupCommand(OutputStream target) {

    public TakeBackupCommand {
        Objects.requireNonNull(target, "target");
    }
}
