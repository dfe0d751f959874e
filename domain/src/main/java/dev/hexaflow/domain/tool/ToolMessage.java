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
}
