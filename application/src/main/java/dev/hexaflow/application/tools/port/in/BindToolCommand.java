package dev.hexaflow.application.tools.port.in;

import dev.hexaflow.domain.tool.ToolBinding;

/** Bind a workflow's tool to what runs it, in place of any binding it had. */
public record BindToolCommand(ToolBinding binding) {

    public BindToolCommand {
        if (binding == null) {
            throw new IllegalArgumentException("binding must not be null");
        }
    }
}
