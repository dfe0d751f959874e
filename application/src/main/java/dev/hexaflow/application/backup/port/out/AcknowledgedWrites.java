package dev.hexaflow.application.backup.port.out;

/**
 * What the server has answered but not yet committed (a campus key's use count is answered first and committed
 * within milliseconds), committed now: a snapshot taken after holds everything answered before it began.
 */
@FunctionalInterface
public interface AcknowledgedWrites {

    AcknowledgedWrites NONE = () -> { };

    /** Commits what was answered so far and waits until it is committed. */
    void commitNow();
}
