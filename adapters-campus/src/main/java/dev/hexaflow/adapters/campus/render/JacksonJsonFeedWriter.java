package dev.hexaflow.adapters.campus.render;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.hexaflow.domain.campus.FeedEnvelope;
import dev.hexaflow.domain.campus.FeedMeta;
import dev.hexaflow.domain.campus.CampusRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes the envelope as compact JSON in the real feed's key order, non-ASCII escaped as the live feed did,
 * streamed field by field rather than through a tree.
 */
final class JacksonJsonFeedWriter {

    private final JsonFactory factory = JsonFactory.builder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .build();

    byte[] write(FeedEnvelope envelope) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + envelope.data().size() * 96);
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.writeStartObject();
            writeMeta(json, envelope.meta());
            json.writeArrayFieldStart("data");
            for (CampusRecord record : envelope.data()) {
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
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    private static void writeMeta(JsonGenerator json, FeedMeta meta) throws IOException {
        json.writeObjectFieldStart("meta");
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
