package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import dev.hexaflow.domain.workflow.JsonText;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An LLM node's structured output, as Dify's {@code invoke_llm_with_structured_output} asks for it and reads it:
 * the schema goes to a model that takes one as its response format, or else into the system prompt (Dify's
 * {@code STRUCTURED_OUTPUT_PROMPT}); the answer is read as the JSON object in it (whole, in a fenced block, or
 * between its first '{' and last '}', after a leading {@code <think>} block), and checked against the schema.
 */
final class StructuredOutput {

    /** The most a schema may have, as compact JSON, and how deep it may nest. */
    static final int MAX_SCHEMA_CHARS = 64 * 1024;
    static final int MAX_SCHEMA_DEPTH = 32;
    /** The most of an answer this reads, and how deep its JSON may nest. */
    static final int MAX_ANSWER_CHARS = 1024 * 1024;
    static final int MAX_ANSWER_DEPTH = 64;

    /** Dify's prompt for a model with no JSON schema mode, {@code {{schema}}} replaced by the schema's JSON. */
    static final String PROMPT = """
            You’re a helpful AI assistant. You could answer questions and output in JSON format.
            constraints:
                - You must output in JSON format.
                - Do not output boolean value, use string type instead.
                - Do not output integer or float value, use number type instead.
            eg:
                Here is the JSON schema:
                {"additionalProperties": false, "properties": {"age": {"type": "number"}, "name": {"type": "string"}}, \
            "required": ["name", "age"], "type": "object"}

                Here is the user's question:
                My name is John Doe and I am 30 years old.

                output:
                {"name": "John Doe", "age": 30}
            Here is the JSON schema:
            {{schema}}
            """;

    private static final Pattern FENCE = Pattern.compile("```(?:json|JSON)?\\s*\\n?(.*?)```", Pattern.DOTALL);

    private final Object schema;
    private final String node;

    private StructuredOutput(Object schema, String node) {
        this.schema = schema;
        this.node = node;
    }

    /**
     * The node's structured output, when it is switched on ({@code structured_output_switch_on}, or the older
     * {@code structured_output_enabled}) and has a {@code structured_output}; a schema past the limits is refused.
     */
    static Optional<StructuredOutput> read(Node node) {
        DataTree data = node.data();
        boolean on = data.has("structured_output_switch_on") ? data.bool("structured_output_switch_on", false)
                : data.bool("structured_output_enabled", false);
        if (!on || !(data.get("structured_output") instanceof Map<?, ?> output)) {
            return Optional.empty();
        }
        Object schema = output.get("schema");
        if (schema instanceof String text) {
            schema = fromText(text);
        }
        if (schema != null) {
            String json = Values.json(schema);
            if (json.length() > MAX_SCHEMA_CHARS) {
                throw new InvalidNodeDataException("structured_output.schema", "has " + json.length()
                        + " characters of JSON, more than the " + MAX_SCHEMA_CHARS + " a schema may have");
            }
            if (depth(json) > MAX_SCHEMA_DEPTH) {
                throw new InvalidNodeDataException("structured_output.schema", "nests deeper than "
                        + MAX_SCHEMA_DEPTH + " levels");
            }
        }
        return Optional.of(new StructuredOutput(schema, "node \"" + node.title() + "\" (" + node.id() + ")"));
    }

    /** A schema written as JSON text is read; text that is not JSON stays text, refused when the node runs. */
    private static Object fromText(String text) {
        if (text.length() > MAX_SCHEMA_CHARS || depth(text) > MAX_SCHEMA_DEPTH) {
            throw new InvalidNodeDataException("structured_output.schema", "is more than " + MAX_SCHEMA_CHARS
                    + " characters or nests deeper than " + MAX_SCHEMA_DEPTH + " levels");
        }
        try {
            return JsonText.parse(text);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }

    /** The schema, or Dify's failure when it is no JSON object. */
    Map<?, ?> schema() {
        if (!(schema instanceof Map<?, ?> map)) {
            throw failure("Invalid structured output schema (stage=schema, path=$.schema): expected a JSON object");
        }
        return map;
    }

    /** The messages with the schema in the system prompt, before the first system prompt's own text. */
    List<ChatMessage> prompted(List<ChatMessage> messages) {
        String instruction = PROMPT.replace("{{schema}}", Values.pythonJson(schema()));
        Optional<ChatMessage> system = messages.stream().filter(m -> m.role().equals("system")).findFirst();
        List<ChatMessage> prompted = new ArrayList<>();
        prompted.add(ChatMessage.of("system", system.map(s -> instruction + "\n\n" + s.text()).orElse(instruction)));
        messages.stream().filter(m -> !m.role().equals("system")).forEach(prompted::add);
        return prompted;
    }

    /** The answer's JSON object, checked against the schema; a failure of the node when there is none or it fits not. */
    Map<String, Object> read(String answer) {
        if (answer.length() > MAX_ANSWER_CHARS) {
            throw failure("Failed to parse structured output (stage=result, path=$): the answer has "
                    + answer.length() + " characters, more than the " + MAX_ANSWER_CHARS + " read for one");
        }
        Map<String, Object> object = parse(ThinkStreamFilter.split(answer)[0])
                .orElseThrow(() -> failure("Failed to parse structured output (stage=result, path=$): "
                        + "Failed to parse structured output: " + excerpt(answer)));
        JsonSchemaCheck.check(schema(), object).ifPresent(problem -> {
            throw failure("Structured output validation failed (stage=result, path=" + problem.path() + "): "
                    + problem.message());
        });
        return object;
    }

    /** The first reading that gives an object: the whole text, a fenced block, from the first '{' to the last '}'. */
    private Optional<Map<String, Object>> parse(String text) {
        List<String> candidates = new ArrayList<>();
        candidates.add(text.strip());
        Matcher fence = FENCE.matcher(text);
        if (fence.find()) {
            candidates.add(fence.group(1).strip());
        }
        int start = text.indexOf('{');
        int end = text.lastIndexOf('}');
        if (start >= 0 && end > start) {
            candidates.add(text.substring(start, end + 1));
        }
        for (String candidate : candidates) {
            Optional<Map<String, Object>> object = object(candidate);
            if (object.isPresent()) {
                return object;
            }
        }
        return Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private Optional<Map<String, Object>> object(String candidate) {
        if (depth(candidate) > MAX_ANSWER_DEPTH) {
            throw failure("Failed to parse structured output (stage=result, path=$): the answer's JSON nests "
                    + "deeper than " + MAX_ANSWER_DEPTH + " levels");
        }
        Object parsed;
        try {
            parsed = JsonText.parse(candidate);
        } catch (IllegalArgumentException notJson) {
            return Optional.empty();
        }
        if (parsed instanceof Map<?, ?> map) {
            return Optional.of((Map<String, Object>) map);
        }
        // A list holding the object, as Dify takes the first object of one.
        if (parsed instanceof List<?> list) {
            return list.stream().filter(Map.class::isInstance).map(m -> (Map<String, Object>) m).findFirst();
        }
        return Optional.empty();
    }

    /** How deep the brackets of JSON text nest, outside its strings. */
    static int depth(String json) {
        int depth = 0;
        int deepest = 0;
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                deepest = Math.max(deepest, ++depth);
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return deepest;
    }

    private NodeFailure failure(String message) {
        return new NodeFailure("LLMNodeError", message + " in " + node, null);
    }

    private static String excerpt(String answer) {
        return answer.length() > 200 ? answer.substring(0, 200) + "…" : answer;
    }
}
