package dev.hexaflow.application;

import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import java.util.List;
import java.util.Map;

/**
 * The smallest workflow app that runs: a start node asking for {@code query} and an end node answering it as
 * {@code answer}, built from domain types since application-tests has no DSL reader; and an engine of the
 * standard nodes that need no adapter, which runs it.
 */
public final class EchoWorkflow {

    private EchoWorkflow() {
    }

    public static Workflow named(String name) {
        Node start = Node.of("start", NodeType.START, Map.of("type", "start", "title", "Start", "variables",
                List.of(Map.of("variable", "query", "label", "query", "type", "text-input", "required", false))));
        Node end = Node.of("end", NodeType.END, Map.of("type", "end", "title", "End", "outputs",
                List.of(Map.of("variable", "answer", "value_selector", List.of("start", "query")))));
        return new Workflow(new AppInfo(name, AppInfo.WORKFLOW_MODE, "🤖", "emoji", "#FFF", "Echoes its query",
                false), "0.3.0", new Graph(List.of(start, end), List.of(new Edge("e1", "start", "end",
                Edge.DEFAULT_HANDLE))), null, List.of());
    }

    public static WorkflowEngine engine() {
        return new WorkflowEngine(StandardNodes.catalogue(StandardNodes.Services.none()));
    }
}
