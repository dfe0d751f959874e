package dev.hexaflow.adapters.persistence.jdbi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hexaflow.domain.workflow.HumanInputForm;
import dev.hexaflow.domain.workflow.PausedRun;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A paused run and its forms kept as JSON text: the records written by their components, read back with their
 * values as the other JSON columns read theirs (whole numbers as Long), so that a run goes on from the store with
 * the values it paused with.
 */
final class PauseColumns {

    // NaN and the infinities are plain workflow values: written as JSON's extension, not as text, they read back.
    // Buffers from Jackson's shared pool, as JsonColumns takes them, for request threads that are virtual.
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build())
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
            .build();

    private PauseColumns() {
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a pause holds a value JSON cannot carry", e);
        }
    }

    static PausedRun pausedRun(String text) {
        PausedRun read = read(text, PausedRun.class);
        WorkflowRun run = read.run();
        Map<String, Map<String, Object>> variables = new LinkedHashMap<>();
        read.variables().forEach((node, values) -> variables.put(node, plainMap(values)));
        return new PausedRun(new WorkflowRun(run.id(), run.workflowId(), run.status(), plainMap(run.inputs()),
                plainMap(run.outputs()), run.error(), run.elapsedTime(), run.totalTokens(), run.totalSteps(),
                run.exceptionsCount(), run.createdAt(), run.finishedAt()), read.taskId(), variables, read.edges(),
                read.waiting(), read.nodeIndex(), plainMap(read.chat()));
    }

    static HumanInputForm form(String text) {
        HumanInputForm read = read(text, HumanInputForm.class);
        return new HumanInputForm(read.formId(), read.formToken(), read.runId(), read.nodeId(), read.nodeTitle(),
                read.formContent(), plainList(read.inputs()), plainList(read.actions()),
                read.resolvedDefaultValues(), read.expirationTime(), plainList(read.deliveryMethods()),
                read.forwardsTo());
    }

    private static <T> T read(String text, Class<T> type) {
        try {
            return JSON.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a pause column holds text that is not a " + type.getSimpleName(), e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> plainMap(Map<String, Object> values) {
        return values == null ? null : (Map<String, Object>) Values.normalize(values);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> plainList(List<Map<String, Object>> values) {
        return (List<Map<String, Object>>) Values.normalize(values);
    }
}
