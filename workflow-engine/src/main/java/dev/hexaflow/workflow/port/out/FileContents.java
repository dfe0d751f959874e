package dev.hexaflow.workflow.port.out;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.domain.workflow.FileValue;

/** The bytes of a file given to a run: fetched from its URL, or read from the server's store of uploads. */
public interface FileContents {

    /** @throws FileException when the file cannot be had (unreachable, too large, not stored) */
    byte[] read(FileValue file, StopSignal stop);

    class FileException extends RuntimeException {
        public FileException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
