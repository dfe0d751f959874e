package dev.hexaflow.application.tool.port.in;

import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;

/** Remove the binding of a workflow's tool, named by provider and tool as its node names them. */
public record UnbindToolCommand(String provider, String tool) {

    public UnbindToolCommand {
        ToolRef named = new ToolRef(ToolProviderType.PLUGIN, provider, tool);
        provider = named.provider();
        tool = named.tool();
    }
}
