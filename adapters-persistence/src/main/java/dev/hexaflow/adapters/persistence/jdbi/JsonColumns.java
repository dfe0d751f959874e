package dev.hexaflow.adapters.persistence.jdbi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hexaflow.domain.workflow.Values;
import java.util.Map;

/**
 * JSON kept in text columns: written as Python's json.dumps writes it (which is what Dify's run detail shows as
 * the inputs text), read back as plain workflow values.
 */
final class JsonColumns {

    // Buffers from Jackson's shared pool, not its per-thread ones: columns are read on request threads, which
    // are virtual threads (one per request) on JDK 21 and later, so per-thread buffers were made for every read.
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build())
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

    /** The value the parser stands at, read as {@link #read(String)} reads a column's text. */
    static Object read(JsonParser parser) throws java.io.IOException {
        return parser.currentToken() == com.fasterxml.jackson.core.JsonToken.VALUE_NULL ? null
                : Values.normalize(JSON.readValue(parser, Object.class));
    }

    /** The factory of the columns' JSON, for text written or read a token at a time. */
    static JsonFactory factory() {
        return JSON.getFactory();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> readMap(String text) {
        Object value = read(text);
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }
}
