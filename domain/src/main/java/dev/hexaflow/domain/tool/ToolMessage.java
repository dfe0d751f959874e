package dev.hexaflow.domain.tool;

import dev.hexaflow.domain.workflow.FileValue;

/**
 * One message a tool answers with, as Dify's tools send them: the tool node joins the texts (and links) into
 * {@code text}, lists the JSON messages in {@code json} and the files in {@code files}, and makes each variable
 * an output of its own.
 */
public sealed interface ToolMessage {

    /** Text, streamed as it comes when an output takes the node's {@code text}. */
    record Text(String text) implements ToolMessage {
    }

    /** A link: {@code "Link: <url>\n"} in the node's text. */
    record Link(String url) implements ToolMessage {
    }

    /** A JSON value (an object, a list, a string ...), one item of the node's {@code json}. */
    record Json(Object value) implements ToolMessage {
    }

    /** A named output of the tool's output schema. */
    record Variable(String name, Object value) implements ToolMessage {
    }

    /** A file the tool made or fetched. */
    record File(FileValue file) implements ToolMessage {
    }

    /**
     * Bytes a tool made (Dify's blob message): kept as a tool file before the node sees it, and then a
     * {@link File}. Compared by identity, as the bytes are.
     *
     * @param filename the name the tool gives it, or null
     */
    record Blob(byte[] content, String mimeType, String filename) implements ToolMessage {
        public Blob {
            if (content == null) {
                throw new IllegalArgumentException("content must not be null");
            }
            mimeType = mimeType == null || mimeType.isBlank() ? "application/octet-stream" : mimeType.strip();
        }

        @Override
        public String toString() {
            return "Blob[" + content.length + " bytes, " + mimeType + ", " + filename + "]";
        }
    }
}
