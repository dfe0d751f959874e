package dev.hexaflow.adapters.campus.render;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.hexaflow.domain.campus.FeedMeta;
import dev.hexaflow.domain.campus.CampusRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Writes the parts of the envelope as compact JSON in the real feed's key order, non-ASCII escaped as the live feed did,
 * streamed field by field rather than through a tree.
 */
final class JacksonJsonFeedWriter {

    private final JsonFactory factory = JsonFactory.builder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .build();

    /** The meta object, on its own. */
    byte[] meta(FeedMeta meta) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(192);
        try (JsonGenerator json = factory.createGenerator(out)) {
            writeMeta(json, meta);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    /** The data array, on its own. */
    byte[] data(List<? extends CampusRecord> records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + records.size() * 96);
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.writeStartArray();
            for (CampusRecord record : records) {
                json.writeStartObject();
                for (RecordFields.Field field : RecordFields.of(record)) {
                    json.writeFieldName(field.name());
                    if (field.value() instanceof Integer number) {
                        json.writeNumber(number);
                    } else if (field.value() == null) {
                        json.writeNull();
                    } else {
                        json.writeString((String) field.value());
                    }
                }
                json.writeEndObject();
            }
            json.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    private static void writeMeta(JsonGenerator json, FeedMeta meta) throws IOException {
        json.writeStartObject();
        json.writeNumberField("requests", meta.requests());
        json.writeNumberField("timestamp", meta.timestamp());
        json.writeNumberField("status", meta.status().code());
        json.writeStringField("message", meta.status().message());
        json.writeFieldName("method_id");
        if (meta.methodId().isPresent()) {
            json.writeNumber(meta.methodId().get());
        } else {
            json.writeNull();
        }
        if (meta.version().isPresent()) {
            json.writeNumberField("version", meta.version().get());
        }
        json.writeObjectFieldStart("method");
        json.writeEndObject();
        json.writeEndObject();
    }
}
