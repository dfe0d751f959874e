package dev.hexaflow.application.runs.service;

import dev.hexaflow.application.runs.port.out.RunEventFormat;
import dev.hexaflow.domain.workflow.JsonText;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A kept event that points at what the store keeps anyway, instead of a copy of its frame: a held run's
 * {@code workflow_started} and {@code workflow_finished} are its run's row, its {@code node_started} and
 * {@code node_finished} its node executions' rows (a node's row does not change after it finished, and what a
 * node_started shows of it never changes). A reference is written {@code @ws}, {@code @wf}, {@code @ns <id>} or
 * {@code @nf <id>}; a {@code text_chunk} is kept as {@code @tc} and a JSON array of its selector's names and its
 * text, some 30 bytes against the frame's 150 (a streamed model answer is a hundred of them). A frame is a
 * JSON object and starts with a brace, so the two are never confused. A replay makes
 * the frame from the rows with the same format the stream uses, so a run nobody streamed costs no frame's JSON
 * while it runs and no copy of its nodes' outputs in the store.
 */
final class EventReferences {

    private static final char MARK = '@';

    private EventReferences() {
    }

    /** The event's reference, or null for one kept as its frame (an agent's log is cut in its row: kept whole). */
    static String of(RunEvent event) {
        if (event instanceof RunEvent.WorkflowStarted) {
            return "@ws";
        } else if (event instanceof RunEvent.WorkflowFinished) {
            return "@wf";
        } else if (event instanceof RunEvent.NodeStarted started) {
            return "@ns " + started.execution().id();
        } else if (event instanceof RunEvent.NodeFinished finished
                && finished.execution().metadata().agentLog().isEmpty()) {
            return "@nf " + finished.execution().id();
        } else if (event instanceof RunEvent.TextChunk chunk) {
            List<String> parts = new ArrayList<>(chunk.fromVariableSelector());
            parts.add(chunk.text());
            return "@tc " + Values.json(parts);
        }
        return null;
    }

    static boolean isReference(String data) {
        return !data.isEmpty() && data.charAt(0) == MARK;
    }

    /**
     * The frame a reference stands for, made from the rows it points at; empty when they are gone (a run pruned
     * while it was read).
     */
    static Optional<String> frame(String reference, String runId, String taskId, Optional<WorkflowRun> run,
            Map<String, NodeExecution> nodes, RunEventFormat format) {
        RunEvent event;
        if (reference.equals("@ws")) {
            event = run.map(RunEvent.WorkflowStarted::new).orElse(null);
        } else if (reference.equals("@wf")) {
            event = run.map(RunEvent.WorkflowFinished::new).orElse(null);
        } else if (reference.startsWith("@ns ")) {
            NodeExecution node = nodes.get(reference.substring(4));
            event = node == null ? null : new RunEvent.NodeStarted(node);
        } else if (reference.startsWith("@nf ")) {
            NodeExecution node = nodes.get(reference.substring(4));
            event = node == null ? null : new RunEvent.NodeFinished(node);
        } else if (reference.startsWith("@tc ")) {
            List<String> parts = ((List<?>) JsonText.parse(reference.substring(4))).stream().map(String::valueOf)
                    .toList();
            event = new RunEvent.TextChunk(parts.get(parts.size() - 1), parts.subList(0, parts.size() - 1));
        } else {
            throw new IllegalArgumentException("not an event reference: " + reference);
        }
        return Optional.ofNullable(event).map(found -> format.data(found, runId, taskId));
    }
}
