package dev.hexaflow.application.tools.port.in;

import dev.hexaflow.domain.tool.ToolMessage;

/** Keep the bytes of a tool's blob message. */
public record KeepToolFileCommand(ToolMessage.Blob blob) {

    public KeepToolFileCommand {
        if (blob == null) {
            throw new IllegalArgumentException("blob must not be null");
        }
    }
}
