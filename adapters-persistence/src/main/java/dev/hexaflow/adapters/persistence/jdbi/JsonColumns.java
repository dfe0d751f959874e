package dev.hexaflow.adapters.persistence.jdbi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hexaflow.domain.workflow.Values;
import java.util.Map;

/**
 * JSON kept in text columns: written as Python's json.dumps writes it (which is what Dify's run detail shows as
 * the inputs text), read back as plain workflow values.
 */
final class JsonColumns {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    private JsonColumns() {
    }

    static String write(Object value) {
        return value == null ? null : Values.pythonJson(value);
    }

    static Object read(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Values.normalize(JSON.readValue(text, Object.class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON column holds text that is not JSON", e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> readMap(String text) {
        Object value = read(text);
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }
}
