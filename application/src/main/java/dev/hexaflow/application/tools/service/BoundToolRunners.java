package dev.hexaflow.application.tools.service;

import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.ArrayList;
import java.util.List;

/** Puts the runners of an operator's OpenAPI and app bindings before the engine's own tool runners. */
public final class BoundToolRunners {

    private BoundToolRunners() {
    }

    /** A binding wins over a built-in of the same name, as an MCP binding does. */
    public static StandardNodes.Services first(StandardNodes.Services services, ToolRunner... bound) {
        List<ToolRunner> runners = new ArrayList<>(List.of(bound));
        runners.addAll(services.tools());
        return services.withTools(runners);
    }
}
