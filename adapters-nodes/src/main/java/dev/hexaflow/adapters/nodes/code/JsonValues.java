package dev.hexaflow.adapters.nodes.code;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hexaflow.workflow.port.out.CodeRunner.CodeException;
import java.util.Map;

/** JSON between the JVM and code sandboxes; numbers come back as Long or Double as the engine expects. */
final class JsonValues {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private JsonValues() {
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new CodeException("the inputs cannot be given to the code as JSON: " + e.getOriginalMessage(), e);
        }
    }

    static Object read(String json) {
        try {
            return JSON.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            throw new CodeException("the code's result is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object result, String what) {
        if (!(result instanceof Map<?, ?> map)) {
            throw new CodeException(what + " must return an object (a dict), not " + describe(result));
        }
        return (Map<String, Object>) map;
    }

    private static String describe(Object value) {
        return value == null ? "null" : value instanceof java.util.List<?> ? "an array"
                : value.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

}
