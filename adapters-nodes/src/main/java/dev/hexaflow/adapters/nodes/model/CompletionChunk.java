package dev.hexaflow.adapters.nodes.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.workflow.port.out.ModelProvider.Usage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one streamed chat-completion chunk (a {@code data:} line's JSON) says: whether it has {@code choices}, an
 * {@code error}'s message, the first choice's delta (its text, reasoning and tool-call pieces) and
 * {@code finish_reason}, and the {@code usage}. Read with a streaming parser that builds no tree, since a model
 * streams one chunk per token; a chunk of an unusual shape (an error, a value of another type than OpenAI's) is read
 * as a tree instead, so both ways give the same answer.
 */
record CompletionChunk(boolean choices, String error, String content, String reasoningContent, String reasoning,
        List<ToolCallPiece> toolCalls, String finishReason, Usage usage) {

    /** A piece of a streamed tool call; {@code index} is null where the chunk gives none (the next call's). */
    record ToolCallPiece(Integer index, String id, String name, String arguments) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = JSON.getFactory();

    /** The chunk of one {@code data:} line; invalid JSON fails as a tree's reading fails. */
    static CompletionChunk of(String data) throws IOException {
        CompletionChunk chunk = streamed(data);
        return chunk != null ? chunk : of(JSON.readTree(data));
    }

    /** The chunk read by the streaming parser, or null when its shape is the tree's to read. */
    static CompletionChunk streamed(String data) {
        try {
            return StreamedChunk.read(data);
        } catch (IOException unusual) {
            return null;
        }
    }

    /** The chunk as the tree gives it: the reference the streaming reading must agree with. */
    static CompletionChunk of(JsonNode chunk) {
        String error = chunk.has("error")
                ? chunk.path("error").path("message").asText(chunk.toString()) : null;
        JsonNode choice = chunk.path("choices").path(0);
        JsonNode delta = choice.path("delta");
        List<ToolCallPiece> calls = new ArrayList<>();
        for (JsonNode call : delta.path("tool_calls")) {
            JsonNode index = call.path("index");
            // Two defaults tell "no index" (the default answered) from an index, whatever the node's type.
            int first = index.asInt(-1);
            calls.add(new ToolCallPiece(first == index.asInt(-2) ? first : null, call.path("id").asText(""),
                    call.path("function").path("name").asText(""),
                    call.path("function").path("arguments").asText("")));
        }
        String finish = choice.hasNonNull("finish_reason") ? choice.get("finish_reason").asText() : null;
        JsonNode used = chunk.path("usage");
        Usage usage = null;
        if (used.isObject()) {
            long prompt = used.path("prompt_tokens").asLong();
            long completion = used.path("completion_tokens").asLong();
            usage = new Usage(prompt, completion, used.path("total_tokens").asLong(prompt + completion));
        }
        return new CompletionChunk(chunk.has("choices"), error, text(delta, "content"),
                text(delta, "reasoning_content"), text(delta, "reasoning"), calls, finish, usage);
    }

    private static String text(JsonNode delta, String field) {
        return delta.path(field).isTextual() ? delta.path(field).asText() : "";
    }

    /**
     * The streaming reading. Each method reads the value its parser stands on and leaves the parser on that value's
     * last token; {@link Unusual} (an {@link IOException}) gives the chunk to the tree.
     */
    private static final class StreamedChunk {

        private boolean choices;
        private String content = "";
        private String reasoningContent = "";
        private String reasoning = "";
        private List<ToolCallPiece> toolCalls = List.of();
        private String finishReason;
        private Usage usage;

        static CompletionChunk read(String data) throws IOException {
            try (JsonParser parser = FACTORY.createParser(data)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    throw new Unusual();
                }
                StreamedChunk chunk = new StreamedChunk();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    switch (field) {
                        case "error" -> throw new Unusual();
                        case "choices" -> chunk.choices(parser, value);
                        case "usage" -> chunk.usage = usage(parser, value);
                        default -> parser.skipChildren();
                    }
                }
                return new CompletionChunk(chunk.choices, null, chunk.content, chunk.reasoningContent,
                        chunk.reasoning, chunk.toolCalls, chunk.finishReason, chunk.usage);
            }
        }

        /** The choices: only the first counts; a later {@code choices} field replaces an earlier, as in a tree. */
        private void choices(JsonParser parser, JsonToken value) throws IOException {
            choices = true;
            content = "";
            reasoningContent = "";
            reasoning = "";
            toolCalls = List.of();
            finishReason = null;
            if (value == JsonToken.VALUE_NULL) {
                return;
            }
            if (value != JsonToken.START_ARRAY) {
                throw new Unusual();
            }
            JsonToken first = parser.nextToken();
            if (first == JsonToken.START_OBJECT) {
                choice(parser);
            } else if (first != JsonToken.END_ARRAY) {
                throw new Unusual();
            }
            while (first != JsonToken.END_ARRAY && parser.nextToken() != JsonToken.END_ARRAY) {
                parser.skipChildren();
            }
        }

        private void choice(JsonParser parser) throws IOException {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("delta")) {
                    delta(parser, value);
                } else if (field.equals("finish_reason")) {
                    finishReason = value == JsonToken.VALUE_NULL ? null : string(parser, value);
                } else {
                    parser.skipChildren();
                }
            }
        }

        private void delta(JsonParser parser, JsonToken value) throws IOException {
            content = "";
            reasoningContent = "";
            reasoning = "";
            toolCalls = List.of();
            if (value == JsonToken.VALUE_NULL) {
                return;
            }
            if (value != JsonToken.START_OBJECT) {
                throw new Unusual();
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken token = parser.nextToken();
                switch (field) {
                    case "content" -> content = textual(parser, token);
                    case "reasoning_content" -> reasoningContent = textual(parser, token);
                    case "reasoning" -> reasoning = textual(parser, token);
                    case "tool_calls" -> toolCalls = toolCalls(parser, token);
                    default -> parser.skipChildren();
                }
            }
        }

        private static List<ToolCallPiece> toolCalls(JsonParser parser, JsonToken value) throws IOException {
            if (value == JsonToken.VALUE_NULL) {
                return List.of();
            }
            if (value != JsonToken.START_ARRAY) {
                throw new Unusual();
            }
            List<ToolCallPiece> calls = new ArrayList<>();
            for (JsonToken item = parser.nextToken(); item != JsonToken.END_ARRAY; item = parser.nextToken()) {
                if (item != JsonToken.START_OBJECT) {
                    throw new Unusual();
                }
                calls.add(toolCall(parser));
            }
            return calls;
        }

        private static ToolCallPiece toolCall(JsonParser parser) throws IOException {
            Integer index = null;
            String id = "";
            String name = "";
            String arguments = "";
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("index")) {
                    if (value != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() != JsonParser.NumberType.INT) {
                        throw new Unusual();
                    }
                    index = parser.getIntValue();
                } else if (field.equals("id")) {
                    id = orEmpty(parser, value);
                } else if (field.equals("function") && value == JsonToken.START_OBJECT) {
                    String[] function = function(parser);
                    name = function[0];
                    arguments = function[1];
                } else if (field.equals("function")) {
                    throw new Unusual();
                } else {
                    parser.skipChildren();
                }
            }
            return new ToolCallPiece(index, id, name, arguments);
        }

        private static String[] function(JsonParser parser) throws IOException {
            String[] function = {"", ""};
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("name")) {
                    function[0] = orEmpty(parser, value);
                } else if (field.equals("arguments")) {
                    function[1] = orEmpty(parser, value);
                } else {
                    parser.skipChildren();
                }
            }
            return function;
        }

        /** The usage's counts; one that is not a whole number is the tree's to read. */
        private static Usage usage(JsonParser parser, JsonToken value) throws IOException {
            if (value != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return null;
            }
            long prompt = 0;
            long completion = 0;
            Long total = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken token = parser.nextToken();
                boolean counted = field.equals("prompt_tokens") || field.equals("completion_tokens")
                        || field.equals("total_tokens");
                if (!counted) {
                    parser.skipChildren();
                    continue;
                }
                if (token != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw new Unusual();
                }
                long count = parser.getLongValue();
                switch (field) {
                    case "prompt_tokens" -> prompt = count;
                    case "completion_tokens" -> completion = count;
                    default -> total = count;
                }
            }
            return new Usage(prompt, completion, total != null ? total : prompt + completion);
        }

        /** A text field as the tree reads it: its string, or nothing for any other value. */
        private static String textual(JsonParser parser, JsonToken value) throws IOException {
            if (value == JsonToken.VALUE_STRING) {
                return parser.getText();
            }
            parser.skipChildren();
            return "";
        }

        /** A string, or "" for null; any other value is the tree's to read (its text form). */
        private static String orEmpty(JsonParser parser, JsonToken value) throws IOException {
            return value == JsonToken.VALUE_NULL ? "" : string(parser, value);
        }

        private static String string(JsonParser parser, JsonToken value) throws IOException {
            if (value != JsonToken.VALUE_STRING) {
                throw new Unusual();
            }
            return parser.getText();
        }
    }

    /** A chunk whose shape the streaming reading leaves to the tree. */
    private static final class Unusual extends IOException {
        Unusual() {
            super(null, null);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
