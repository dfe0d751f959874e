package dev.hexaflow.adapters.persistence.jdbi;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hexaflow.application.runs.port.out.RunRepository.KeptEvent;
import dev.hexaflow.domain.workflow.NodeExecution;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run kept as one record ({@code workflow_run}'s {@code nodes}, {@code events_from} and {@code events}), and
 * back. Its node executions are a JSON array of objects named as {@code node_execution}'s columns, whose JSON
 * columns (inputs, process data, outputs, metadata) are embedded as they are, not quoted again; its events are their
 * data lines joined by newlines, as a {@code run_event} row joins them; and the events of a run kept as it goes, as
 * those rows.
 */
final class RunRecords {

    /** {@code node_execution}'s columns, in {@link NodeExecutionRows#columns}' order. */
    private static final String[] NODE_COLUMNS = {"id", "run_id", "node_id", "node_type", "title", "idx",
        "predecessor", "inputs", "process_data", "outputs", "status", "error", "elapsed_time", "metadata",
        "created_at", "finished_at"};

    private static final int RUN_ID = 1;

    private RunRecords() {
    }

    /** The node executions' columns as the record's JSON array; null for none. */
    static String nodes(List<Object[]> executions) {
        if (executions.isEmpty()) {
            return null;
        }
        StringWriter text = new StringWriter(256 * executions.size());
        try (JsonGenerator json = JsonColumns.factory().createGenerator(text)) {
            json.writeStartArray();
            for (Object[] columns : executions) {
                json.writeStartObject();
                for (int i = 0; i < NODE_COLUMNS.length; i++) {
                    if (i != RUN_ID && columns[i] != null) {
                        json.writeFieldName(NODE_COLUMNS[i]);
                        write(json, NODE_COLUMNS[i], columns[i]);
                    }
                }
                json.writeEndObject();
            }
            json.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private static void write(JsonGenerator json, String column, Object value) throws IOException {
        if (NodeExecutionRows.isJson(column)) {
            // Already JSON text, as the column keeps it.
            json.writeRawValue((String) value);
        } else if (value instanceof String string) {
            json.writeString(string);
        } else if (value instanceof Integer number) {
            json.writeNumber(number);
        } else if (value instanceof Long number) {
            json.writeNumber(number);
        } else if (value instanceof Double number) {
            json.writeNumber(number);
        } else {
            throw new IllegalArgumentException("a node execution's " + column + " is a " + value.getClass());
        }
    }

    /** The record's node executions, in the order they were kept. */
    static List<NodeExecution> nodes(String text) {
        List<NodeExecution> executions = new ArrayList<>();
        try (JsonParser json = JsonColumns.factory().createParser(text)) {
            expect(json.nextToken(), JsonToken.START_ARRAY);
            while (json.nextToken() == JsonToken.START_OBJECT) {
                Map<String, Object> columns = new LinkedHashMap<>();
                while (json.nextToken() == JsonToken.FIELD_NAME) {
                    String column = json.currentName();
                    json.nextToken();
                    columns.put(column, NodeExecutionRows.isJson(column) ? JsonColumns.read(json)
                            : scalar(json));
                }
                executions.add(NodeExecutionRows.execution(columns));
            }
        } catch (IOException e) {
            throw new IllegalStateException("a run's record holds node executions that are not JSON", e);
        }
        return executions;
    }

    private static Object scalar(JsonParser json) throws IOException {
        return switch (json.currentToken()) {
            case VALUE_STRING -> json.getText();
            case VALUE_NUMBER_INT -> json.getLongValue();
            case VALUE_NUMBER_FLOAT -> json.getDoubleValue();
            case VALUE_NULL -> null;
            default -> throw new IOException("unexpected " + json.currentToken());
        };
    }

    private static void expect(JsonToken token, JsonToken expected) throws IOException {
        if (token != expected) {
            throw new IOException("expected " + expected + ", found " + token);
        }
    }

    /**
     * The events' data joined by newlines, when they are numbered one after the other and none holds a newline (a
     * JSON line never does); null when they are not, and are kept as rows of their own.
     */
    static String events(List<KeptEvent> events) {
        if (events.isEmpty()) {
            return null;
        }
        StringBuilder joined = new StringBuilder(events.size() * 256);
        for (int i = 0; i < events.size(); i++) {
            KeptEvent event = events.get(i);
            if (event.data().indexOf('\n') >= 0 || i > 0 && event.seq() != events.get(i - 1).seq() + 1) {
                return null;
            }
            joined.append(i == 0 ? "" : "\n").append(event.data());
        }
        return joined.toString();
    }

    /** The record's events numbered after {@code after}, in order. */
    static List<KeptEvent> events(String runId, long from, String joined, long after) {
        List<KeptEvent> events = new ArrayList<>();
        long seq = from;
        int start = 0;
        while (start <= joined.length()) {
            int end = joined.indexOf('\n', start);
            end = end < 0 ? joined.length() : end;
            if (seq > after) {
                events.add(new KeptEvent(runId, seq, joined.substring(start, end)));
            }
            seq++;
            start = end + 1;
        }
        return events;
    }

    /**
     * A run's events of the batch as rows of consecutive numbers, each row's data their lines joined: an event
     * out of order, or whose data holds a newline, starts a row of its own.
     */
    static List<Object[]> eventRows(Map<String, List<KeptEvent>> events) {
        List<Object[]> rows = new ArrayList<>();
        for (List<KeptEvent> run : events.values()) {
            int from = 0;
            for (int i = 1; i <= run.size(); i++) {
                if (i < run.size() && run.get(i).seq() == run.get(i - 1).seq() + 1
                        && run.get(i).data().indexOf('\n') < 0 && run.get(from).data().indexOf('\n') < 0) {
                    continue;
                }
                StringBuilder data = new StringBuilder();
                for (int j = from; j < i; j++) {
                    data.append(j == from ? "" : "\n").append(run.get(j).data());
                }
                rows.add(new Object[] {run.get(from).runId(), run.get(i - 1).seq(), run.get(from).seq(),
                        data.toString()});
                from = i;
            }
        }
        return rows;
    }
}
