package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.tools.port.in.KeepToolFileCommand;
import dev.hexaflow.application.tools.port.in.KeepToolFileUseCase;
import dev.hexaflow.application.tools.port.in.ToolFileException;
import dev.hexaflow.domain.tool.ToolDescription;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolRef;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.workflow.port.out.ToolRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A tool runner whose blob messages (the bytes of speech, an MCP server's image) are kept as tool files before
 * the node sees them, as Dify's ToolFileMessageTransformer does: the node's {@code files} then holds each as a
 * file with its signed URL.
 */
public final class ToolFilesKept implements ToolRunner {

    private final ToolRunner runner;
    private final KeepToolFileUseCase files;

    private ToolFilesKept(ToolRunner runner, KeepToolFileUseCase files) {
        this.runner = runner;
        this.files = files;
    }

    /** Every runner of the services, its files kept. */
    public static StandardNodes.Services around(StandardNodes.Services services, KeepToolFileUseCase files) {
        return services.withTools(services.tools().stream().<ToolRunner>map(r -> new ToolFilesKept(r, files))
                .toList());
    }

    @Override
    public Optional<ToolDescription> describe(ToolRef tool) {
        return runner.describe(tool);
    }

    @Override
    public boolean runs(ToolRef tool) {
        return runner.runs(tool);
    }

    @Override
    public List<ToolMessage> run(ToolRef tool, Map<String, Object> arguments, StopSignal stop) {
        List<ToolMessage> messages = new ArrayList<>();
        for (ToolMessage message : runner.run(tool, arguments, stop)) {
            if (message instanceof ToolMessage.Blob blob) {
                try {
                    messages.add(new ToolMessage.File(files.keep(new KeepToolFileCommand(blob))));
                } catch (ToolFileException e) {
                    throw new ToolException(e.getMessage());
                }
            } else {
                messages.add(message);
            }
        }
        return messages;
    }
}
