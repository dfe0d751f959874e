package dev.hexaflow.adapters.campus.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.hexaflow.domain.campus.CampusRecord;
import dev.hexaflow.domain.campus.FeedMethod;
import dev.hexaflow.domain.campus.InvalidCampusDataException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON array of objects whose keys are the data set's field names, streaming so that every error can
 * name the line it is on. Values are strings or null; tutors_count is a whole number or null.
 */
final class JsonCampusDataReader {

    private final JsonFactory factory = new JsonFactory();

    List<CampusRecord> read(FeedMethod dataSet, byte[] content) {
        try (JsonParser json = factory.createParser(content)) {
            if (json.nextToken() != JsonToken.START_ARRAY) {
                throw new InvalidCampusDataException(line(json), null, "expected a JSON array of records");
            }
            List<CampusRecord> records = new ArrayList<>();
            JsonToken token;
            while ((token = json.nextToken()) != JsonToken.END_ARRAY) {
                if (token != JsonToken.START_OBJECT) {
                    throw new InvalidCampusDataException(line(json), null, "expected a record object, found " + token);
                }
                records.add(record(dataSet, json));
            }
            if (json.nextToken() != null) {
                throw new InvalidCampusDataException(line(json), null, "text after the closing ] of the array");
            }
            return records;
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new InvalidCampusDataException(line, null, "not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidCampusDataException(0, null, "the file could not be read: " + e.getMessage());
        }
    }

    private static CampusRecord record(FeedMethod dataSet, JsonParser json) throws IOException {
        int start = line(json);
        Map<String, String> values = new HashMap<>();
        while (json.nextToken() == JsonToken.FIELD_NAME) {
            String name = json.currentName();
            int at = line(json);
            String field = RecordSchema.field(dataSet, name).orElseThrow(() -> new InvalidCampusDataException(at,
                    name, "not a field of " + dataSet.resource() + "; the fields are "
                            + String.join(", ", RecordSchema.fields(dataSet))));
            JsonToken value = json.nextToken();
            if (values.containsKey(field)) {
                throw new InvalidCampusDataException(at, name, "the field appears twice in one record");
            }
            values.put(field, value(json, value, field, at));
        }
        return RecordSchema.build(dataSet, values, start);
    }

    private static String value(JsonParser json, JsonToken token, String field, int line) throws IOException {
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (RecordSchema.isInteger(field)) {
            if (token != JsonToken.VALUE_NUMBER_INT) {
                throw new InvalidCampusDataException(line, field, "expected a whole number or null, found "
                        + describe(json, token));
            }
            return json.getText();
        }
        if (token != JsonToken.VALUE_STRING) {
            throw new InvalidCampusDataException(line, field, "expected a string or null, found "
                    + describe(json, token));
        }
        return json.getText();
    }

    private static String describe(JsonParser json, JsonToken token) throws IOException {
        return token.isScalarValue() ? json.getText() : token.isStructStart() ? "an object or array" : token.name();
    }

    private static int line(JsonParser json) {
        return json.currentTokenLocation().getLineNr();
    }
}
