package dev.hexaflow.workflow.nodes;

import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.nodes.AgentSettings.AgentTool;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A tool an agent offers in one run: how the model sees it, and the runner that runs it. */
record OfferedTool(AgentTool tool, Call runner, ModelProvider.Tool function,
        Map<String, Object> fixedArguments) {

    /** Runs one call of the tool with the model's arguments and the fixed ones, until {@code stop}. */
    @FunctionalInterface
    interface Call {
        /** @throws ToolRunner.ToolException with what the model is told went wrong */
        List<ToolMessage> run(Map<String, Object> arguments, StopSignal stop);
    }

    /** The tool as its runner describes it (the node's description first, if any), its fixed arguments resolved. */
    static OfferedTool of(AgentTool tool, ToolRunner runner, ToolDescription description, VariablePool pool) {
        Map<String, Object> fixed = new LinkedHashMap<>();
        tool.fixed().forEach((name, param) -> fixed.put(name, param.resolve(pool)));
        String said = tool.description().isBlank() ? description.description() : tool.description();
        return new OfferedTool(tool, (arguments, stop) -> runner.run(tool.ref(), arguments, stop),
                new ModelProvider.Tool(tool.ref().tool(), said, schemaWithout(description.inputSchema(),
                        fixed.keySet())), fixed);
    }

    /** The tool's schema without the parameters the node fixes, which the model must not be asked for. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> schemaWithout(Map<String, Object> schema, Set<String> fixed) {
        if (fixed.isEmpty()) {
            return schema;
        }
        Map<String, Object> copy = new LinkedHashMap<>(schema);
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            Map<String, Object> kept = new LinkedHashMap<>((Map<String, Object>) properties);
            kept.keySet().removeAll(fixed);
            copy.put("properties", kept);
        }
        if (schema.get("required") instanceof List<?> required) {
            copy.put("required", required.stream().filter(name -> !fixed.contains(String.valueOf(name))).toList());
        }
        return copy;
    }
}
