package dev.hexaflow.application.tools.port.in;

import dev.hexaflow.domain.workflow.FileValue;

/** Keeps the bytes a tool made as a tool file, and answers it as the file the tool's node outputs. */
public interface KeepToolFileUseCase {

    /**
     * @throws ToolFileException (TOO_LARGE) when the bytes are more than a tool file may hold; nothing is kept
     */
    FileValue keep(KeepToolFileCommand command);
}
