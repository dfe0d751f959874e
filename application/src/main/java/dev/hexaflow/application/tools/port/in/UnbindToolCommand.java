package dev.hexaflow.application.tools.port.in;

import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;

/** Remove the binding of a workflow's tool, named by provider and tool as its node names them. */
public record UnbindToolCommand(String provider, String tool) {

    public UnbindToolCommand {
        if (provider != null && provider.length() > ToolBinding.MAX_NAME
                || tool != null && tool.length() > ToolBinding.MAX_NAME) {
            throw new IllegalArgumentException("provider and tool must be at most " + ToolBinding.MAX_NAME
                    + " characters");
        }
        ToolRef named = new ToolRef(ToolProviderType.PLUGIN, provider, tool);
        provider = named.provider();
        tool = named.tool();
    }
}
