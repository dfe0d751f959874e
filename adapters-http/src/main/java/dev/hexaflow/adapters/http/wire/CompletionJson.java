package dev.hexaflow.adapters.http.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.support.ResponseBodies;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A blocking run's answer, {@link DifyWire#completion}, written field by field with a {@link JsonGenerator}: the
 * same bytes as {@code DifyWire.json(DifyWire.completion(run, taskId))}, without building its maps first and
 * without the mapper finding a serializer for each of their values (BENCHMARKS.md, issue 40). The values a run's
 * outputs hold (text, numbers, booleans, null, objects with text keys, lists) are written here as the mapper
 * writes them, and a file as its {@link FileValue#asMap}; any other (a map with other keys, a set, an array) is
 * handed to the same mapper as before. It is written to text and encoded after, as the mapper's text was: a
 * generator writing UTF-8 itself would escape an emoji's two halves where the text keeps the emoji.
 */
public final class CompletionJson {

    private static final ObjectMapper JSON = ResponseBodies.jsonMapper();

    private CompletionJson() {
    }

    /** The body of the blocking answer, as UTF-8. */
    public static byte[] of(WorkflowRun run, String taskId) {
        StringWriter text = new StringWriter(512);
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            json.writeStringField("task_id", taskId);
            json.writeStringField("workflow_run_id", run.id());
            json.writeFieldName("data");
            finishedData(json, run);
            json.writeEndObject();
        } catch (IOException e) {
            throw new IllegalArgumentException("not writable as JSON: " + e.getMessage(), e);
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@link DifyWire#finishedData}, its fields in its order. */
    private static void finishedData(JsonGenerator json, WorkflowRun run) throws IOException {
        json.writeStartObject();
        json.writeStringField("id", run.id());
        json.writeStringField("workflow_id", run.workflowId());
        json.writeStringField("status", run.status().wireName());
        json.writeFieldName("outputs");
        value(json, run.outputs());
        json.writeStringField("error", run.error());
        json.writeNumberField("elapsed_time", run.elapsedTime());
        json.writeNumberField("total_tokens", run.totalTokens());
        json.writeNumberField("total_steps", run.totalSteps());
        json.writeFieldName("created_by");
        json.writeStartObject();
        json.writeEndObject();
        json.writeNumberField("created_at", run.createdAt());
        json.writeFieldName("finished_at");
        if (run.finishedAt() == null) {
            json.writeNull();
        } else {
            json.writeNumber(run.finishedAt());
        }
        json.writeNumberField("exceptions_count", run.exceptionsCount());
        json.writeFieldName("files");
        json.writeStartArray();
        json.writeEndArray();
        json.writeEndObject();
    }

    /** A workflow value as the mapper writes {@code DifyWire.wire(value)}. */
    static void value(JsonGenerator json, Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof String text) {
            json.writeString(text);
        } else if (value instanceof Boolean bool) {
            json.writeBoolean(bool);
        } else if (value instanceof Integer number) {
            json.writeNumber(number.intValue());
        } else if (value instanceof Long number) {
            json.writeNumber(number.longValue());
        } else if (value instanceof Double number) {
            json.writeNumber(number.doubleValue());
        } else if (value instanceof FileValue file) {
            value(json, file.asMap()); // text keys, and values of text, null and whole numbers only
        } else if (value instanceof Map<?, ?> map && textKeys(map)) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.writeFieldName((String) entry.getKey());
                value(json, entry.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof List<?> list) {
            json.writeStartArray();
            for (Object item : list) {
                value(json, item);
            }
            json.writeEndArray();
        } else {
            JSON.writeValue(json, DifyWire.wire(value));
        }
    }

    private static boolean textKeys(Map<?, ?> map) {
        for (Object key : map.keySet()) {
            if (!(key instanceof String)) {
                return false;
            }
        }
        return true;
    }
}
