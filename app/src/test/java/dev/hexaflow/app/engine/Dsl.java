package dev.hexaflow.app.engine;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.domain.workflow.Workflow;
import java.nio.charset.StandardCharsets;

/** Workflows for tests, written as the DSL Dify exports, with the boilerplate around the graph filled in. */
final class Dsl {

    private Dsl() {
    }

    /** {@code nodes} and {@code edges} are YAML list items, indented for the graph. */
    static Workflow workflow(String nodes, String edges) {
        String yaml = "app: {name: test, mode: workflow}\nkind: app\nversion: 0.5.0\nworkflow:\n  graph:\n"
                + "    nodes:\n" + indent(nodes) + "    edges:\n" + indent(edges);
        return new YamlWorkflowDslReader().read(yaml.getBytes(StandardCharsets.UTF_8));
    }

    private static String indent(String block) {
        StringBuilder out = new StringBuilder();
        for (String line : block.strip().split("\n")) {
            out.append("      ").append(line).append('\n');
        }
        return out.toString();
    }
}
