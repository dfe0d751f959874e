package dev.hexaflow.domain.workflow;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * All a paused run needs to go on later, on any instance, in plain values (text, numbers, booleans, maps, lists and
 * nulls, files as Dify's file objects), so that a store keeps it as JSON: the run as it paused, its variables by node,
 * the state of each edge of its graph decided so far, the nodes waiting for a person, its counters and what its
 * answer and end nodes made so far.
 *
 * @param variables node id to variable name to value, as {@link VariablePool#export()} gives them
 * @param edges     edge id to {@code taken} or {@code skipped}; an edge not named is still pending
 * @param waiting   the paused nodes, by node id
 * @param chat      a chatflow turn's query, conversation id and dialogue count; empty for a workflow's run
 */
public record PausedRun(WorkflowRun run, String taskId, Map<String, Map<String, Object>> variables,
        Map<String, String> edges, Map<String, WaitingNode> waiting, int nodeIndex, Map<String, Object> chat) {

    public PausedRun {
        if (run == null || waiting == null || waiting.isEmpty()) {
            throw new IllegalArgumentException("a paused run needs its run and a node it waits at");
        }
        variables = variables == null ? Map.of() : variables;
        edges = edges == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(edges));
        waiting = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(waiting));
        chat = chat == null ? Map.of() : chat;
    }

    /** A node waiting for its form: its execution (kept under the same id when it runs again) and its form. */
    public record WaitingNode(String nodeId, String executionId, int index, String predecessorNodeId,
            long createdAt, HumanInputForm form) {
    }

    /** The forms the run waits on, in the order their nodes paused. */
    public List<HumanInputForm> forms() {
        return waiting.values().stream().map(WaitingNode::form).toList();
    }

    /** The ids of the nodes the run waits at, in the order they paused. */
    public List<String> waitingNodes() {
        return List.copyOf(waiting.keySet());
    }
}
