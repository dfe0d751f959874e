package dev.hexaflow.application.knowledge.port.in;

import java.util.Optional;

/** A change to one chunk: its new text, or whether searches find it, or both. */
public record EditChunkCommand(String documentId, String chunkId, Optional<String> content,
        Optional<Boolean> enabled) {

    public EditChunkCommand {
        content = content == null ? Optional.empty() : content;
        enabled = enabled == null ? Optional.empty() : enabled;
    }
}
