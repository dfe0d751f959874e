package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An agent run's {@code agent_log}: every round, model call and tool call, kept for the execution as it ends and
 * told to the run's listeners as it begins and as it ends, as Dify's {@code agent_log} events.
 */
final class AgentLog {

    /** A tool's answer kept in the log is cut here, so that a large page cannot swell every run record. */
    private static final int LOGGED_TEXT = 2000;

    private final NodeContext ctx;
    private final List<Map<String, Object>> entries = new ArrayList<>();

    AgentLog(NodeContext ctx) {
        this.ctx = ctx;
    }

    /** The ended entries, each round before its model and tool calls. */
    List<Map<String, Object>> entries() {
        return entries;
    }

    static String shortened(String text) {
        return text.length() > LOGGED_TEXT ? text.substring(0, LOGGED_TEXT) + "…" : text;
    }

    /** Tells the run's listeners that an entry begins: Dify sends it with status start, then again as it ends. */
    void begun(String id, String label, String parentId, long startedMillis, String provider) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("started_at", startedMillis / 1000.0);
        if (provider != null) {
            metadata.put("provider", provider);
        }
        ctx.emitAgentLog(id, label, parentId, "start", null, Map.of(), metadata);
    }

    void roundEnded(String roundId, int round, long roundStarted, String answer,
            List<Map<String, Object>> responses, long totalTokens) {
        Map<String, Object> output = new LinkedHashMap<>();
        output.put("llm_response", answer);
        output.put("tool_responses", responses);
        Map<String, Object> metadata = timing(roundStarted);
        metadata.put("total_tokens", totalTokens);
        // The round goes before its model and tool calls, as Dify lists a parent before its children.
        int first = 0;
        while (first < entries.size() && !roundId.equals(entries.get(first).get("parent_id"))) {
            first++;
        }
        logged(first, entry(roundId, "ROUND " + round, null, "success", null, Map.of("output", output),
                metadata));
    }

    void modelCallEnded(String roundId, String model, String provider, long callStarted, ChatResult result) {
        Map<String, Object> output = new LinkedHashMap<>();
        output.put("llm_response", result.text());
        output.put("tool_calls", result.toolCalls().stream().map(c -> Map.of("id", c.id(), "name", c.name(),
                "arguments", c.arguments())).toList());
        Map<String, Object> metadata = timing(callStarted);
        metadata.put("provider", provider);
        metadata.put("total_tokens", result.usage().totalTokens());
        metadata.put("total_price", "0");
        metadata.put("currency", "USD");
        logged(entries.size(), entry(roundId + "-thought", model + " Thought", roundId, "success", null,
                Map.of("output", output), metadata));
    }

    /** A tool call that ended: {@code error} is null when the tool answered. */
    void toolCallEnded(String roundId, String callId, String name, String provider, long callStarted, Object input,
            String response, String error) {
        Map<String, Object> output = new LinkedHashMap<>();
        output.put("tool_call_id", callId);
        output.put("tool_call_name", name);
        output.put("tool_call_input", input);
        output.put("tool_response", shortened(response));
        Map<String, Object> metadata = timing(callStarted);
        metadata.put("provider", provider);
        logged(entries.size(), entry(roundId + "-call-" + callId, "CALL " + name, roundId,
                error == null ? "success" : "error", error, Map.of("output", output), metadata));
    }

    /** Keeps the ended entry in the execution's log at {@code position}, and tells the run's listeners. */
    @SuppressWarnings("unchecked")
    private void logged(int position, Map<String, Object> entry) {
        entries.add(position, entry);
        ctx.emitAgentLog((String) entry.get("id"), (String) entry.get("label"), (String) entry.get("parent_id"),
                (String) entry.get("status"), (String) entry.get("error"), (Map<String, Object>) entry.get("data"),
                (Map<String, Object>) entry.get("metadata"));
    }

    private static Map<String, Object> timing(long startedMillis) {
        long now = System.currentTimeMillis();
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("started_at", startedMillis / 1000.0);
        metadata.put("finished_at", now / 1000.0);
        metadata.put("elapsed_time", (now - startedMillis) / 1000.0);
        return metadata;
    }

    private static Map<String, Object> entry(String id, String label, String parentId, String status, String error,
            Map<String, Object> data, Map<String, Object> metadata) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", id);
        entry.put("label", label);
        entry.put("parent_id", parentId);
        entry.put("status", status);
        entry.put("error", error);
        entry.put("data", data);
        entry.put("metadata", metadata);
        return entry;
    }
}
