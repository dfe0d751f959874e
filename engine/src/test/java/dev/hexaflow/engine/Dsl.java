package dev.hexaflow.engine;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.domain.workflow.Workflow;
import java.nio.charset.StandardCharsets;

/** Workflows for tests, written as the DSL Dify exports, with the boilerplate around the graph filled in. */
public final class Dsl {

    private Dsl() {
    }

    /** {@code nodes} and {@code edges} are YAML list items, indented for the graph. */
    static Workflow workflow(String nodes, String edges) {
        return read(text(nodes, edges));
    }

    static Workflow read(String dsl) {
        return new YamlWorkflowDslReader().read(dsl.getBytes(StandardCharsets.UTF_8));
    }

    /** The whole DSL file of a workflow app with these nodes and edges. */
    public static String text(String nodes, String edges) {
        return "app: {name: test, mode: workflow}\nkind: app\nversion: 0.5.0\nworkflow:\n  graph:\n"
                + "    nodes:\n" + indent(nodes) + "    edges:\n" + indent(edges);
    }

    /** start → an http-request GET of {@code url} → end (output {@code status}), as a DSL file. */
    public static String httpGet(String url, int readSeconds) {
        return text("""
                - {id: start, data: {type: start, title: Start, variables: []}}
                - id: call
                  data:
                    type: http-request
                    title: Call
                    method: get
                    url: '%s'
                    headers: ''
                    params: ''
                    body: {type: none, data: []}
                    timeout: {connect: 2, read: %d, write: 2}
                - {id: end, data: {type: end, title: End, outputs: [{variable: status, value_selector: [call, status_code]}]}}
                """.formatted(url, readSeconds), """
                - {source: start, target: call}
                - {source: call, target: end}
                """);
    }

    private static String indent(String block) {
        StringBuilder out = new StringBuilder();
        for (String line : block.strip().split("\n")) {
            out.append("      ").append(line).append('\n');
        }
        return out.toString();
    }
}
